import os from "node:os";
import type { ActorDefinition, AnyStrategy } from "@cyclium/core/actors";
import { resolveNodeIdentity } from "@cyclium/core/identity";
import { createCycliumNode, type NodeExtension } from "@cyclium/core/node";
import { createPrometheusExporter, Telemetry } from "@cyclium/core/telemetry";
import { resolveDatabase } from "@cyclium/db";
import pg from "pg";
import { pino } from "pino";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { TWorkerEnv } from "./env";
import { startNodeHttpServer } from "./http/node-http-server";

export interface RunWorkerOptions {
  env: TWorkerEnv;
  actors: readonly ActorDefinition[];
  strategies: Record<string, AnyStrategy>;
  /** Recovery timers, the workflow engine, fan-out triggers: started with the node. */
  extensions?: readonly NodeExtension[];
  /** Dedupe jitter bound (SPEC section 3); tests set 0. */
  jitterMs?: number;
  /** Recorded in cyclium_nodes.version. */
  version?: string;
}

/**
 * SPEC deploy sequence: on SIGTERM a node has 30 s to let running episodes finish their current
 * step; what does not finish stays `running` for recovery.
 */
const SHUTDOWN_GRACE_MS = 30_000;
/** Past the grace period plus this, the process exits even if a database call hangs. */
const SHUTDOWN_HARD_LIMIT_MS = SHUTDOWN_GRACE_MS + 10_000;

/**
 * A worker process: a full-mode Cyclium node with the trigger request poller, `GET /healthz`,
 * `GET /metrics`, JSON logs, and a graceful stop on SIGTERM/SIGINT (exit 0).
 */
export async function runWorker(options: RunWorkerOptions): Promise<void> {
  const { env } = options;
  const nodeIdentity = resolveNodeIdentity(env.CYCLIUM_NODE_IDENTITY);
  const logger = pino({
    level: env.LOG_LEVEL,
    base: { app: "cyclium-worker", node: nodeIdentity, pid: process.pid, host: os.hostname() },
  });
  const database = await resolveDatabase({
    databaseUrl: env.DATABASE_URL,
    log: (message) => logger.info(message),
  });
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  pool.on("error", (error) => logger.warn({ err: error }, "idle database connection failed"));

  const telemetry = new Telemetry(logger);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const exporter = createPrometheusExporter({ telemetry, registry });

  const node = await createCycliumNode({
    db: pool,
    databaseUrl: database.url,
    kind: "worker",
    mode: env.CYCLIUM_MODE,
    nodeIdentity,
    stack: env.CYCLIUM_STACK_SLUG ?? null,
    env: env.CYCLIUM_ENV ?? null,
    workClaims: env.CYCLIUM_WORK_CLAIMS,
    leaseSeconds: env.CYCLIUM_WORK_CLAIMS_LEASE_SECONDS,
    poller: {
      enabled: env.CYCLIUM_TRIGGER_POLLER,
      intervalMs: env.CYCLIUM_TRIGGER_POLL_INTERVAL_MS,
      sourceStack: env.CYCLIUM_TRIGGER_POLL_SOURCE_STACK ?? null,
      sourceEnv: env.CYCLIUM_TRIGGER_POLL_SOURCE_ENV ?? env.CYCLIUM_ENV ?? null,
    },
    actors: options.actors,
    strategies: options.strategies,
    extensions: options.extensions ?? [],
    logger,
    telemetry,
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(options.version === undefined ? {} : { version: options.version }),
  });

  let stopping = false;
  const server = await startNodeHttpServer({
    port: env.PORT,
    registry,
    logger,
    checkHealth: async () => {
      await pool.query("SELECT 1");
      const { nodeMode, overrides } = node.modes.status();
      return { node: nodeIdentity, mode: nodeMode, overrides, stopping };
    },
  });
  await node.start();
  logger.info(
    { port: server.port, mode: env.CYCLIUM_MODE, actors: node.host.actorIds() },
    `worker listening on http://127.0.0.1:${server.port}`,
  );

  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info(
      { signal, grace_ms: SHUTDOWN_GRACE_MS },
      "shutting down: draining running episodes",
    );
    setTimeout(() => {
      logger.error({}, "shutdown did not complete in time; exiting");
      process.exit(1);
    }, SHUTDOWN_HARD_LIMIT_MS).unref();
    try {
      await node.stop({ graceMs: SHUTDOWN_GRACE_MS });
      exporter.stop();
      await server.close();
      await pool.end();
      if (database.embedded?.startedHere) await database.embedded.stop();
      logger.info({}, "stopped");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}
