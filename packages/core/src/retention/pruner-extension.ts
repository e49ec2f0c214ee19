import type { NodeExtension } from "../nodes/index";
import { startRepeatAfterRun } from "../schedule/index";
import { runPruner, type RunPrunerResult } from "./run-pruner";
import { DEFAULT_RETENTION_POLICY, type RetentionPolicy } from "./retention-policy";

/** CYCLIUM_PRUNER_INTERVAL_MS default: Oban's Pruner also runs every minute. */
export const DEFAULT_PRUNER_INTERVAL_MS = 60_000;

export interface PrunerExtensionOptions {
  /** The retention in force (config/retention-env.ts reads it from the environment). */
  policy?: RetentionPolicy | undefined;
  /** Between the end of one run and the start of the next (default 60 s). */
  intervalMs?: number | undefined;
  /** Before the first run (default: one interval, so a deploy's restarts settle first). */
  delayMs?: number | undefined;
  batchSize?: number | undefined;
  maxBatches?: number | undefined;
  onRun?: ((result: RunPrunerResult) => void) | undefined;
}

/**
 * The pruner on a node (SPEC sections 13 and 14): every worker runs it, the work claim
 * `pruner:run` lets one run at a time cluster-wide, and a node that finds it busy waits for its
 * next turn. Stopping the node ends a run between two batches.
 */
export function prunerExtension(options: PrunerExtensionOptions = {}): NodeExtension {
  const intervalMs = options.intervalMs ?? DEFAULT_PRUNER_INTERVAL_MS;
  return {
    name: "pruner",
    start(node) {
      const stopping = new AbortController();
      const timer = startRepeatAfterRun({
        delayMs: options.delayMs ?? intervalMs,
        intervalMs,
        onFailed: (error) => node.logger.error({ err: error }, "pruner run failed"),
        run: async () => {
          const result = await runPruner(
            {
              claims: node.claims,
              owner: node.nodeIdentity,
              leaseSeconds: node.leaseSeconds,
              policy: options.policy ?? DEFAULT_RETENTION_POLICY,
              trigger: "scheduled",
              signal: stopping.signal,
              logger: node.logger,
              telemetry: node.telemetry,
              ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
              ...(options.maxBatches === undefined ? {} : { maxBatches: options.maxBatches }),
            },
            node.db,
          );
          options.onRun?.(result);
        },
      });
      return {
        stop: async () => {
          stopping.abort();
          await timer.stop();
        },
      };
    },
  };
}
