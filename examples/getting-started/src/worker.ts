// A worker process: `node dist/worker.js`. Run two or more; they share the work through
// PostgreSQL. runWorker reads its configuration from the environment (DATABASE_URL, PORT and the
// CYCLIUM_* variables of docs/deployment.md), applies pending migrations, runs the actors, the
// workflow engine and the cron trigger, serves /healthz and /metrics and stops on SIGTERM.
import { runWorker } from "@cyclium/core";
import { deployment } from "./deployment.js";

await runWorker({ deployment });
