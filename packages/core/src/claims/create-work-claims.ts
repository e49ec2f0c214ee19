import type { Queryable } from "../db/index";
import { assertNever } from "../errors/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { MemoryWorkClaims } from "./memory-work-claims";
import { PassthroughWorkClaims } from "./passthrough-work-claims";
import { PostgresWorkClaims } from "./postgres-work-claims";
import type { WorkClaims } from "./work-claims";

/**
 * The built-in values of `CYCLIUM_WORK_CLAIMS`; `none` is the SPEC's spelling of `off`. Any other
 * value names a module (see loadWorkClaims). `postgres-claim-rows` is `postgres` as the releases
 * before the episode's own lease ran it: a claim row per episode run (docs/work-claims.md,
 * "Upgrading"); the rolling-upgrade test runs its "old" worker with it.
 */
export const WORK_CLAIMS_MODES = [
  "postgres",
  "postgres-claim-rows",
  "memory",
  "off",
  "none",
] as const;
export type WorkClaimsMode = (typeof WORK_CLAIMS_MODES)[number];

export interface CreateWorkClaimsOptions {
  mode: WorkClaimsMode;
  db: Queryable;
  telemetry?: Telemetry;
  logger?: Logger;
}

export function isWorkClaimsMode(value: string): value is WorkClaimsMode {
  return (WORK_CLAIMS_MODES as readonly string[]).includes(value);
}

/** Picks the built-in implementation the configuration names. */
export function createWorkClaims(options: CreateWorkClaimsOptions): WorkClaims {
  switch (options.mode) {
    case "postgres":
      return new PostgresWorkClaims(options);
    case "postgres-claim-rows":
      return new PostgresWorkClaims({ ...options, episodeLeases: "claim_rows" });
    case "memory":
      // Claims held in this process only: two processes would both win every acquire.
      options.logger?.warn(
        {},
        "CYCLIUM_WORK_CLAIMS=memory: claims live in this process only; run a single node",
      );
      return new MemoryWorkClaims(options.telemetry ? { telemetry: options.telemetry } : {});
    case "off":
    case "none":
      return new PassthroughWorkClaims();
    default:
      return assertNever(options.mode, "work claims mode");
  }
}
