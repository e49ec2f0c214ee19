import type { Logger, Telemetry } from "../telemetry/index";
import { runWithClaim } from "./run-with-claim";
import type { WorkClaims } from "./work-claims";

/** The one claim every node's sweep competes for: one sweep at a time cluster-wide. */
export const CLAIMS_EXPIRY_CLAIM_KEY = "claims:expiry_sweep";

/**
 * Rows per reclaimExpired call. Each call locks its rows for one short statement; 500 keeps that
 * under a few milliseconds, far below a renew's wait budget.
 */
export const DEFAULT_RECLAIM_BATCH_SIZE = 500;
/** Calls per sweep: at most 10,000 rows a run; a larger backlog is finished by the next runs. */
export const DEFAULT_RECLAIM_MAX_BATCHES = 20;

export interface SweepExpiredClaimsOptions {
  claims: WorkClaims;
  owner: string;
  /** The sweep's own claim lease (renewed while it runs). */
  leaseSeconds: number;
  batchSize?: number;
  maxBatches?: number;
  logger: Logger;
  telemetry: Telemetry;
}

export type SweepExpiredClaimsResult =
  /** Claims are off: nothing can lapse. */
  | { kind: "off" }
  /** Another node is sweeping. */
  | { kind: "busy" }
  | { kind: "swept"; expiredKeys: string[] };

/**
 * Marks lapsed claims `expired` (SPEC section 4, `reclaimExpired`) under the work claim
 * `claims:expiry_sweep`, so one node at a time sweeps; counted as `cyclium.work_claims.expired`.
 * The claim spares the database N nodes scanning for the same rows; exactly-once does not rest on
 * it: each row moves from `claimed` to `expired` in a statement that locks it.
 */
export async function sweepExpiredClaims(
  options: SweepExpiredClaimsOptions,
): Promise<SweepExpiredClaimsResult> {
  if (options.claims.off === true) return { kind: "off" };
  const batchSize = options.batchSize ?? DEFAULT_RECLAIM_BATCH_SIZE;
  const maxBatches = options.maxBatches ?? DEFAULT_RECLAIM_MAX_BATCHES;
  const outcome = await runWithClaim(
    {
      claims: options.claims,
      dedupeKey: CLAIMS_EXPIRY_CLAIM_KEY,
      owner: options.owner,
      leaseSeconds: options.leaseSeconds,
      logger: options.logger,
    },
    async (claimed) => {
      const expiredKeys: string[] = [];
      for (let batch = 0; batch < maxBatches && !claimed.signal.aborted; batch++) {
        const { expiredKeys: keys } = await options.claims.reclaimExpired({ limit: batchSize });
        expiredKeys.push(...keys);
        if (keys.length < batchSize) break;
      }
      return expiredKeys;
    },
  );
  if (outcome.kind === "busy") return { kind: "busy" };
  const expiredKeys = outcome.value;
  if (expiredKeys.length > 0) {
    options.telemetry.emit(
      "cyclium.work_claims.expired",
      { count: expiredKeys.length },
      { owner_node: options.owner },
    );
    options.logger.info(
      { expired: expiredKeys.length, sample: expiredKeys.slice(0, 5) },
      "lapsed work claims marked expired",
    );
  }
  return { kind: "swept", expiredKeys };
}
