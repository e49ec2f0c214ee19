import type { ConstructorOptions, Queue, WorkOptions } from "pg-boss";

export const PG_BOSS_QUEUE = "bench_noop";

export type PgBossVariant = "defaults" | "batched";

/**
 * `defaults`: nothing set. A pg-boss 12 worker then fetches one job, runs it, and waits out
 * pollingIntervalSeconds (2 s) before the next fetch, so it does about 0.5 jobs/s per process:
 * draining 20,000 items would take 5.5 hours, which is why the drain measures it over a window.
 *
 * `batched`: pg-boss's own batching, the counterpart of graphile-worker's local queue and batched
 * completion: 100 jobs per fetch (completed by one statement), fetching again at once while
 * fetches come back full, 4 fetch loops per process, and LISTEN/NOTIFY wake-ups when idle.
 */
export function pgBossConstructorOptions(url: string, variant: PgBossVariant): ConstructorOptions {
  return variant === "defaults"
    ? { connectionString: url }
    : { connectionString: url, useListenNotify: true };
}

export function pgBossQueueOptions(variant: PgBossVariant): Omit<Queue, "name"> {
  return variant === "defaults" ? {} : { notify: true };
}

export function pgBossWorkOptions(variant: PgBossVariant): WorkOptions {
  return variant === "defaults"
    ? {}
    : { batchSize: 100, burstWhenBatchFull: true, localConcurrency: 4 };
}
