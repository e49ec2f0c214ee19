// One node for the run_all catch-up test: a pool and a trigger scheduler, nothing else, so three
// of them start quickly. Its cron trigger catches up every missed window (capped by
// CATCH_UP_LIMIT); workflows are not run, the firing records are what the test reads. Prints
// "ready" once ticking; stops on SIGTERM after the turn in progress.
import pg from "pg";
import { defineTrigger } from "../trigger-definition";
import { TriggerRegistry } from "../trigger-registry";
import { TriggerScheduler } from "../trigger-scheduler";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL ?? "", max: 3 });
const scheduler = new TriggerScheduler({
  db: pool,
  env: null,
  node: process.env.NODE_ID ?? `catch-up-node-${process.pid}`,
  triggers: new TriggerRegistry().register(
    defineTrigger({
      name: "backlog",
      on: "report",
      cron: "* * * * *",
      catchUp: "run_all",
      catchUpLimit: Number(process.env.CATCH_UP_LIMIT ?? "100"),
    }),
  ),
  startWorkflow: () => Promise.resolve({ instanceId: crypto.randomUUID() }),
  tickMs: 50,
});
await scheduler.start();
console.log(JSON.stringify({ event: "ready" }));

process.once("SIGTERM", () => {
  void scheduler
    .stop()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
