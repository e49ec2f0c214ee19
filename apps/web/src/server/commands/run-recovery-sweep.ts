import type { Queryable } from "@cyclium/core/console";
import { recordRecoverySweep, type RecoverySweepItem } from "@cyclium/core/console";
import type { TConsoleRuntime } from "../runtime/console-runtime";

/** What a sweep found and did (the counts core records), and the id of its record. */
export type TRunSweepResult = { sweepId: string } & Pick<
  RecoverySweepItem,
  "found" | "claimed" | "restarted" | "failed" | "skipped" | "reconciled" | "durationMs"
>;

/**
 * "Run a sweep now" (SPEC section 5: the console can start a sweep on demand) for one env. The
 * console's recovery defers restarted episodes to workers as trigger requests instead of running
 * them here; the sweep is recorded for the Recovery page in `db` (the audited transaction).
 */
export async function runRecoverySweep(options: {
  runtime: TConsoleRuntime;
  db: Queryable;
  env: string | null;
  stack: string | null;
  staleAfterMs?: number | undefined;
  requestedBy: string;
}): Promise<TRunSweepResult> {
  const started = performance.now();
  const sweep = await options.runtime.recovery.sweep({
    sourceEnv: options.env,
    sourceStack: options.stack,
    staleAfterMs: options.staleAfterMs,
  });
  const reconciled = await options.runtime.recovery
    .reconcileWorkflows({ sourceEnv: options.env, sourceStack: options.stack })
    .then((result) => result.replayed)
    .catch(() => 0);
  const counts = {
    found: sweep.found,
    claimed: sweep.claimed,
    restarted: sweep.restarted,
    failed: sweep.failed,
    skipped: sweep.skipped,
    reconciled,
    durationMs: performance.now() - started,
  };
  const sweepId = await recordRecoverySweep({
    db: options.db,
    sweep: {
      node: options.runtime.nodeIdentity,
      trigger: "manual",
      requestedBy: options.requestedBy,
      sourceStack: options.stack,
      sourceEnv: options.env,
      ...counts,
    },
  });
  return { sweepId, ...counts };
}
