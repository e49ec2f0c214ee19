import type { NodeExtension } from "../nodes/index";
import { startRepeatAfterRun } from "../timers/index";
import { runPruner, type RunPrunerResult } from "./run-pruner";
import { DEFAULT_RETENTION_POLICY, type RetentionPolicy } from "./retention-policy";

/**
 * CYCLIUM_PRUNER_INTERVAL_MS default. Every node runs the pruner and the claim is free between
 * runs, so a cluster of N nodes prunes about N times an interval: at 60 s (Oban's minute) it was
 * ten statements a minute on every idle worker (issue 28). At 5 minutes one node prunes hourly
 * buckets and day-old rows well in time, and 16 nodes still prune about every 20 s.
 */
export const DEFAULT_PRUNER_INTERVAL_MS = 300_000;

export interface PrunerExtensionOptions {
  /** The retention in force (config/retention-env.ts reads it from the environment). */
  policy?: RetentionPolicy | undefined;
  /** Between the end of one run and the start of the next (default 5 minutes). */
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
          // More history is due than one run removes (a sustained intake above ~50,000 finished
          // episodes of one actor per interval): go on soon rather than an interval later.
          return result.kind === "pruned" && result.capped ? "again" : undefined;
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
