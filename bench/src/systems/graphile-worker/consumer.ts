import { Logger, run, type Runner } from "graphile-worker";
import { itemOf, type Consumer, type ConsumerOptions } from "../consumer";
import { reportToStderr } from "../stderr-logger";
import { GRAPHILE_TASK, graphileRunnerOptions } from "./settings";

/** A graphile-worker runner (started on `go`) whose one task does nothing but report the item. */
export function prepareGraphileConsumer(options: ConsumerOptions): Promise<Consumer> {
  const logger = new Logger((scope) => (level, message, meta) => {
    if (level === "error" || level === "warning") {
      reportToStderr(options.label, level, message, { scope, meta });
    }
  });
  let runner: Runner | undefined;
  return Promise.resolve({
    async start() {
      runner = await run({
        ...graphileRunnerOptions(options.url, options.concurrency),
        logger,
        taskList: {
          [GRAPHILE_TASK]: (payload) => {
            options.onExecute(itemOf(payload));
            return Promise.resolve();
          },
        },
      });
    },
    async stop() {
      await runner?.stop();
    },
  });
}
