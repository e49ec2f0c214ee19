import os from "node:os";
import { resolveDatabase } from "@cyclium/db";
import pg from "pg";
import { pino } from "pino";
import { collectDefaultMetrics, Registry } from "prom-client";
import { readWorkerEnv } from "./env";
import { startNodeHttpServer } from "./http/node-http-server";

// A full-mode Cyclium node: executes deferred trigger requests and runs recovery. Configuration
// comes only from the environment (SPEC section 9); a bad value exits with code 2.
const env = readWorkerEnv();
const logger = pino({
  level: env.LOG_LEVEL,
  base: { app: "cyclium-worker", pid: process.pid, host: os.hostname() },
});

const database = await resolveDatabase({
  databaseUrl: env.DATABASE_URL,
  log: (message) => logger.info(message),
});
const pool = new pg.Pool({ connectionString: database.url, max: 10 });
pool.on("error", (error) => logger.warn({ err: error }, "idle database connection failed"));

const registry = new Registry();
collectDefaultMetrics({ register: registry });

const server = await startNodeHttpServer({
  port: env.PORT,
  registry,
  logger,
  checkHealth: async () => {
    await pool.query("SELECT 1");
    return { mode: env.CYCLIUM_MODE };
  },
});
logger.info(
  { port: server.port, mode: env.CYCLIUM_MODE },
  `worker listening on http://127.0.0.1:${server.port}`,
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, "shutting down");
  await server.close();
  await pool.end();
  if (database.embedded?.startedHere) await database.embedded.stop();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
