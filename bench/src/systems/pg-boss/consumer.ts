import { PgBoss, type Job } from "pg-boss";
import { itemOf, type Consumer, type ConsumerOptions } from "../consumer";
import { reportToStderr } from "../stderr-logger";
import {
  PG_BOSS_QUEUE,
  pgBossConstructorOptions,
  pgBossWorkOptions,
  type PgBossVariant,
} from "./settings";

/** A started PgBoss instance; `go` registers the worker with the variant's work options. */
export async function preparePgBossConsumer(
  options: ConsumerOptions,
  variant: PgBossVariant,
): Promise<Consumer> {
  const boss = new PgBoss(pgBossConstructorOptions(options.url, variant));
  boss.on("error", (err) => reportToStderr(options.label, "error", "pg-boss error", err));
  await boss.start();
  const handler = (jobs: Job<unknown>[]): Promise<void> => {
    for (const job of jobs) options.onExecute(itemOf(job.data));
    return Promise.resolve();
  };
  return {
    async start() {
      await boss.work(PG_BOSS_QUEUE, pgBossWorkOptions(variant), handler);
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
