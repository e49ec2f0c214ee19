import type { Bus } from "../bus/index";
import type { WorkClaims } from "../claims/index";
import type { Queryable } from "../db/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { startRepeatAfterRun } from "../timers/index";
import { sweepExpiredFindings } from "./sweep-expired-findings";

/**
 * What the sweep needs of the node it runs on: a slice of node/'s CycliumNodeContext, declared
 * here so that findings does not import node/ (which imports the runtime, which imports
 * findings: an import circle).
 */
export interface FindingsExpiryNode {
  readonly db: Queryable;
  /** Where each expired finding's `finding.expired` is published. */
  readonly bus?: Pick<Bus, "publish">;
  readonly claims: WorkClaims;
  readonly nodeIdentity: string;
  readonly leaseSeconds: number;
  readonly logger: Logger;
  readonly telemetry: Telemetry;
}

/** A NodeExtension (node/node-extension.ts), structurally. */
export interface FindingsExpiryExtension {
  readonly name: string;
  start(node: FindingsExpiryNode): { stop(): void | Promise<void> };
}

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
): FindingsExpiryExtension {
  const intervalMs = options.intervalMs ?? 30_000;
  return {
    name: "findings-expiry",
    start(node) {
      const timer = startRepeatAfterRun({
        delayMs: options.delayMs ?? intervalMs,
        intervalMs,
        onFailed: (error) => node.logger.error({ err: error }, "findings expiry sweep failed"),
        run: async () => {
          await sweepExpiredFindings(
            {
              claims: node.claims,
              owner: node.nodeIdentity,
              leaseSeconds: node.leaseSeconds,
              logger: node.logger,
              telemetry: node.telemetry,
              bus: node.bus,
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
