import type { DBOS } from "@dbos-inc/dbos-sdk";

type RegisterQueueOptions = NonNullable<Parameters<typeof DBOS.registerQueue>[1]>;

/** The application every bench process and client acts as (DBOS scopes queues by it). */
export const DBOS_APPLICATION = "cyclium_bench";
/**
 * Set explicitly in the workers and on every enqueue: an enqueued workflow without an
 * `appVersion` is only dequeued by an executor of the latest registered version, and DBOS's
 * default version is a hash of the registered code.
 */
export const DBOS_APP_VERSION = "bench";
export const DBOS_QUEUE = "bench_noop";
export const DBOS_WORKFLOW = "benchNoop";

/**
 * DBOS queues are polled, not woken by NOTIFY: each process runs one dequeue transaction per
 * queue every minPollingIntervalMs (default 1,000 ms), claiming up to workerConcurrency
 * workflows. Unset, workerConcurrency lets the first process claim the whole backlog, so a second
 * process would get nothing; 500 matches graphile-worker's localQueue and our prefetch. At the
 * default 1 s poll a process could start at most 500 items a second whatever PostgreSQL allows,
 * so the bench polls every 100 ms: 10 idle dequeue transactions a second per process.
 */
export const DBOS_QUEUE_OPTIONS: RegisterQueueOptions = {
  workerConcurrency: 500,
  minPollingIntervalMs: 100,
  onConflict: "always_update",
};

/** The item's workflow ID: the primary key then refuses a second row for an item. */
export function dbosWorkflowId(item: number): string {
  return `item-${item}`;
}
