import type { Queryable } from "../db/index";
import { assertNever } from "../errors/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { PassthroughWorkClaims } from "./passthrough-work-claims";
import { PostgresWorkClaims } from "./postgres-work-claims";
import type { WorkClaims } from "./work-claims";

/** Values of `CYCLIUM_WORK_CLAIMS`. */
export const WORK_CLAIMS_MODES = ["postgres", "none"] as const;
export type WorkClaimsMode = (typeof WORK_CLAIMS_MODES)[number];

export interface CreateWorkClaimsOptions {
  mode: WorkClaimsMode;
  db: Queryable;
  telemetry?: Telemetry;
  logger?: Logger;
}

/** Picks the implementation the configuration names. */
export function createWorkClaims(options: CreateWorkClaimsOptions): WorkClaims {
  switch (options.mode) {
    case "postgres":
      return new PostgresWorkClaims(options);
    case "none":
      return new PassthroughWorkClaims();
    default:
      return assertNever(options.mode, "work claims mode");
  }
}
