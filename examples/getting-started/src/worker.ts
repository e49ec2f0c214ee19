// A worker process: `node dist/worker.js`. Run two or more; they share the work through
// PostgreSQL. runWorker applies pending migrations, runs the actors, the workflow engine and the
// cron trigger, serves /healthz and /metrics (PORT, default 4000) and stops on SIGTERM.
import { runWorker } from "@cyclium/core";
import { deployment } from "./deployment.js";
import { env } from "./env.js";

await runWorker({
  deployment,
  databaseUrl: env.databaseUrl,
  port: env.port,
});
