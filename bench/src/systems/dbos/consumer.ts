import { DBOS } from "@dbos-inc/dbos-sdk";
import { itemOf, type Consumer, type ConsumerOptions } from "../consumer";
import {
  DBOS_APP_VERSION,
  DBOS_APPLICATION,
  DBOS_QUEUE,
  DBOS_QUEUE_OPTIONS,
  DBOS_WORKFLOW,
} from "./settings";

/**
 * A DBOS Transact process: one registered workflow that runs one checkpointed step per item (the
 * step reports the item), dequeued from the bench's queue. DBOS is a process-wide singleton, so
 * `start` launches it (the queue poller starts with it) and `stop` shuts it down.
 */
export function prepareDbosConsumer(options: ConsumerOptions): Promise<Consumer> {
  const noop = async (payload: unknown): Promise<void> => {
    const item = itemOf(payload);
    await DBOS.runStep(
      () => {
        options.onExecute(item);
        return Promise.resolve();
      },
      { name: "noop" },
    );
  };
  DBOS.registerWorkflow(noop, { name: DBOS_WORKFLOW });
  DBOS.setConfig({
    name: DBOS_APPLICATION,
    systemDatabaseUrl: options.url,
    // One connection per running handler plus the poller's, as the other systems get.
    systemDatabasePoolSize: options.concurrency + 1,
    applicationVersion: DBOS_APP_VERSION,
    // workerConcurrency is counted per executor ID, which must differ between processes.
    executorID: options.label,
    // The template database is migrated by install; a worker only verifies the schema.
    runMigrations: false,
    logLevel: "warn",
  });
  return Promise.resolve({
    async start() {
      await DBOS.launch();
      await DBOS.registerQueue(DBOS_QUEUE, DBOS_QUEUE_OPTIONS);
    },
    async stop() {
      await DBOS.shutdown({ workflowCompletionTimeoutMS: 10_000 });
    },
  });
}
