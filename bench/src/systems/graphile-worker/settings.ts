import type { RunnerOptions } from "graphile-worker";

/** The task every graphile-worker item runs. */
export const GRAPHILE_TASK = "bench_noop";

/**
 * graphile-worker with its batching on, as in the configuration of its published performance
 * figures (worker.graphile.org/docs/performance: ~183,000 jobs/s with concurrentJobs 24,
 * maxPoolSize 25, localQueue 500, completeJobBatchDelay 0): jobs are fetched 500 at a time into
 * a local queue and completions of the same tick go out as one statement.
 */
export function graphileRunnerOptions(url: string, concurrency: number): RunnerOptions {
  return {
    connectionString: url,
    concurrency,
    maxPoolSize: concurrency + 1,
    noHandleSignals: true,
    preset: {
      worker: {
        localQueue: { size: 500 },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
      },
    },
  };
}
