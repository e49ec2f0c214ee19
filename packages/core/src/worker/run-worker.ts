import { migrate, migrationsDir, resolveDatabase } from "@cyclium/db";
import pg from "pg";
import { collectDefaultMetrics, Registry } from "prom-client";
import { loadWorkClaims } from "../claims/index";
import { PreparingClient } from "../db/index";
import { redactSecrets } from "../errors/index";
import { findingsExpiryExtension } from "../findings/index";
import {
  claimsExpiryExtension,
  createCycliumNode,
  DEFAULT_LIVE_WITHIN_MS,
  recoveryExtension,
  resolveNodeIdentity,
  workflowExtension,
  type CycliumNode,
  type NodeExtension,
} from "../nodes/index";
import { prunerExtension } from "../retention/index";
import { createPrometheusExporter, registerClusterGauges, Telemetry } from "../telemetry/index";
import { DEFAULT_TRIGGER_POLL_INTERVAL_MS } from "../deferred/index";
import { triggerExtension } from "../triggers/index";
import { resolveWorkerSettings } from "./env";
import type { RunWorkerOptions } from "./run-worker-settings";
import { startNodeHttpServer } from "./node-http-server";
import { preparedStatementsOn } from "./prepared-statements";
import { describeStartupError } from "./startup-errors";
import { createWorkerLogger } from "./worker-logger";

export interface RunningWorker {
  readonly node: CycliumNode;
  readonly port: number;
  /** What SIGTERM does: drain, close, exit the process (0, or 1 when stopping failed). */
  shutdown(signal: string): Promise<void>;
}

/** SPEC deploy sequence: 30 s to let running episodes finish their current step. */
const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
/** Past the grace period plus this, the process exits even if a database call hangs. */
const SHUTDOWN_HARD_MARGIN_MS = 10_000;

/**
 * A worker process, the front door (SPEC section 13): a full-mode node running the deployment
 * (its actors, workflow engine, cron and poll triggers), the trigger request poller, recovery,
 * findings and claims expiry, `GET /healthz`, `GET /metrics`, JSON logs, and a graceful stop on
 * SIGTERM/SIGINT. What keeps data safe is on unless switched off.
 */
export async function runWorker(given: RunWorkerOptions): Promise<RunningWorker> {
  const options: RunWorkerOptions = {
    ...resolveWorkerSettings(given, given.environment),
    deployment: given.deployment,
  };
  try {
    return await startWorker(options);
  } catch (error) {
    const line = describeStartupError(error, {
      databaseUrl: options.databaseUrl,
      listenDatabaseUrl: options.listenDatabaseUrl,
      port: options.port ?? 4000,
    });
    if (line === undefined) throw redactError(error);
    // The setting to fix and how, like a bad variable: one line, exit code 2.
    console.error(line);
    process.exit(2);
  }
}

async function startWorker(options: RunWorkerOptions): Promise<RunningWorker> {
  const { deployment } = options;
  const identitySource = options.nodeIdentity;
  const nodeIdentity = resolveNodeIdentity(
    typeof identitySource === "function" ? await identitySource() : identitySource,
  );
  const mode = options.mode ?? "full";
  const env = options.env ?? null;
  const stack = options.stack ?? null;
  const leaseSeconds = options.leaseSeconds ?? 120;
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const logger = createWorkerLogger({ level: options.logLevel ?? "info", node: nodeIdentity });
  const database = await resolveDatabase({
    databaseUrl: options.databaseUrl,
    log: (message) => logger.info(message),
  });
  // Behind PgBouncer in transaction mode, a session lock taken through the pooler would stay on
  // whichever server connection ran it, and LISTEN would hear nothing: both go direct.
  const directUrl = options.listenDatabaseUrl ?? database.url;
  if (options.migrate !== false) {
    const result = await migrate({
      url: directUrl,
      migrationsDir,
      log: (message) => logger.info(message),
    });
    logger.info(
      { applied: result.applied.length, already_applied: result.alreadyApplied.length },
      "migrations checked",
    );
  }
  // An idle worker's statements (about one a second, issue 28) keep one pooled connection warm;
  // one opened when two of them meet, or by a burst of work, closes 2 s after its last use
  // instead of pg's 10 s, during which the next overlap kept it open for good.
  const prepared = preparedStatementsOn(options.preparedStatements, database.url, directUrl);
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    min: 1,
    idleTimeoutMillis: 2_000,
    ...(prepared ? { Client: PreparingClient } : {}),
  });
  pool.on("error", (error) => logger.warn({ err: error }, "idle database connection failed"));

  const telemetry = new Telemetry(logger);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The deployment's expectations start at 0, so an alert's increase() sees their first failure.
  const exporter = createPrometheusExporter({
    telemetry,
    registry,
    expectations: deployment.actors.flatMap((actor) =>
      actor.expectations.map((expectation) => ({
        actor: actor.identifier,
        expectation: expectation.id,
      })),
    ),
  });
  // Pending requests and node sightings for the alert rules (deploy/prometheus).
  registerClusterGauges({ db: pool, registry, liveWithinMs: DEFAULT_LIVE_WITHIN_MS, logger });

  // A bad adapter is an invalid_config error: runWorker prints its one line and exits 2.
  const workClaims = await loadWorkClaims({
    setting: options.workClaims ?? "postgres",
    db: pool,
    telemetry,
    logger,
  });

  const node = await createCycliumNode({
    db: pool,
    databaseUrl: directUrl,
    kind: "worker",
    mode,
    nodeIdentity,
    stack,
    env,
    workClaims,
    leaseSeconds,
    poller: {
      enabled: options.poller?.enabled ?? true,
      intervalMs: options.poller?.intervalMs ?? DEFAULT_TRIGGER_POLL_INTERVAL_MS,
      sourceStack: options.poller?.sourceStack ?? null,
      sourceEnv: options.poller?.sourceEnv === undefined ? env : options.poller.sourceEnv,
    },
    actors: deployment.actors,
    strategies: { ...deployment.strategies },
    extensions: workerExtensions(options),
    logger,
    telemetry,
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(options.version === undefined ? {} : { version: options.version }),
  });

  let stopping = false;
  const server = await startNodeHttpServer({
    port: options.port ?? 4000,
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
    {
      port: server.port,
      mode,
      actors: node.host.actorIds(),
      workflows: deployment.workflows.list().map((workflow) => workflow.name),
      triggers: deployment.triggers.list().map((trigger) => trigger.name),
    },
    `worker listening on http://127.0.0.1:${server.port}`,
  );

  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, grace_ms: graceMs }, "shutting down: draining running episodes");
    setTimeout(() => {
      logger.error({}, "shutdown did not complete in time; exiting");
      process.exit(1);
    }, graceMs + SHUTDOWN_HARD_MARGIN_MS).unref();
    try {
      await node.stop({ graceMs });
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
  return { node, port: server.port, shutdown };
}

/**
 * The built-in extensions, in start order (stopped in reverse before episodes drain): the
 * workflow engine before the triggers that start workflows and the recovery that resumes their
 * due retries. Every worker runs them: one firing per trigger window and one applier per
 * workflow transition cluster-wide, by conditional claims in the database.
 */
function workerExtensions(options: RunWorkerOptions): NodeExtension[] {
  const { deployment } = options;
  const workflows =
    options.workflows === false ? undefined : workflowExtension(deployment.workflows);
  const extensions: NodeExtension[] = [];
  if (workflows) {
    extensions.push(workflows);
    if (options.triggers !== false) {
      extensions.push(
        triggerExtension({
          triggers: deployment.triggers,
          workflows: deployment.workflows,
          engine: workflows,
        }),
      );
    }
  }
  if (options.recovery !== false) {
    extensions.push(
      recoveryExtension({
        delayMs: options.recovery?.delayMs ?? 120_000,
        intervalMs: options.recovery?.intervalMs ?? 60_000,
        staleAfterMs: options.recovery?.staleAfterMs ?? 120_000,
        resolvePolicy: options.recovery?.resolvePolicy,
        workflows,
      }),
    );
  }
  if (options.findingsExpiry !== false) {
    extensions.push(findingsExpiryExtension(options.findingsExpiry ?? {}));
  }
  if (options.claimsExpiry !== false) {
    extensions.push(claimsExpiryExtension(options.claimsExpiry ?? {}));
  }
  if (options.pruner !== false) {
    extensions.push(prunerExtension(options.pruner ?? {}));
  }
  return [...extensions, ...(options.extensions ?? [])];
}

/** A start-up bug keeps its stack, but not a password a connection string put in its text. */
function redactError(error: unknown): unknown {
  if (error instanceof Error) {
    error.message = redactSecrets(error.message);
    if (error.stack !== undefined) error.stack = redactSecrets(error.stack);
  }
  return error;
}
