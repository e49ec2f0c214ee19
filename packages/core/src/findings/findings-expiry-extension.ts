import type { NodeExtension } from "../node/index";
import { startRecoveryTimer } from "../recovery/recovery-timer";
import { sweepExpiredFindings } from "./sweep-expired-findings";

export interface FindingsExpiryExtensionOptions {
  /** Between the end of one sweep and the start of the next (default 30 s). */
  intervalMs?: number;
  /** Before the first sweep (default: one interval). */
  delayMs?: number;
  batchSize?: number;
}

/**
 * The findings expiry sweep on a node. Every node may run it: the work claim lets one sweep at a
 * time, and a node that finds it busy just waits for its next turn. A 30 s default keeps an
 * expired finding visible at most that long past its `expires_at`.
 */
export function findingsExpiryExtension(
  options: FindingsExpiryExtensionOptions = {},
): NodeExtension {
  const intervalMs = options.intervalMs ?? 30_000;
  return {
    name: "findings-expiry",
    start(node) {
      const timer = startRecoveryTimer({
        delayMs: options.delayMs ?? intervalMs,
        intervalMs,
        logger: node.logger,
        run: async () => {
          await sweepExpiredFindings(
            {
              claims: node.claims,
              owner: node.nodeIdentity,
              leaseSeconds: node.leaseSeconds,
              logger: node.logger,
              telemetry: node.telemetry,
              ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
            },
            node.db,
          );
        },
      });
      return { stop: () => timer.stop() };
    },
  };
}
