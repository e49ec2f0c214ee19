import { startClaimsExpiryTimer, type SweepExpiredClaimsResult } from "../claims/index";
import type { NodeExtension } from "./node-extension";

export interface ClaimsExpiryExtensionOptions {
  /** `CYCLIUM_WORK_CLAIMS_RECLAIM_INTERVAL_MS` (default 60 s). */
  intervalMs?: number;
  /** Before the first sweep (default: one interval). */
  delayMs?: number;
  batchSize?: number;
  onSwept?: (result: SweepExpiredClaimsResult) => void;
}

/**
 * `reclaimExpired` on a schedule (SPEC section 4): lapsed claims are marked `expired` once per
 * cluster at a time, under the work claim `claims:expiry_sweep`. Workers run it by default.
 */
export function claimsExpiryExtension(options: ClaimsExpiryExtensionOptions = {}): NodeExtension {
  return {
    name: "claims-expiry",
    start(node) {
      if (node.claims.off === true) return;
      const timer = startClaimsExpiryTimer({
        claims: node.claims,
        owner: node.nodeIdentity,
        leaseSeconds: node.leaseSeconds,
        logger: node.logger,
        telemetry: node.telemetry,
        ...options,
      });
      return { stop: () => timer.stop() };
    },
  };
}
