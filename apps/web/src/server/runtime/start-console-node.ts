import { episodeColumns, toEpisode, type EpisodeRow } from "@cyclium/core/episodes";
import { createCycliumNode, type CycliumNode } from "@cyclium/core/node";
import { createRecovery, type RecoveryTarget } from "@cyclium/core/recovery";
import { triggerExtension } from "@cyclium/core/triggers";
import { workflowExtension } from "@cyclium/core/workflows";
import { pino } from "pino";
import { getWebEnv } from "../../env";
import { getPool } from "../db";
import { getWebTelemetry } from "../metrics/web-metrics";
import { getNodeInfo } from "../node-info";
import { consoleDeployment } from "./console-deployment";
import { setConsoleRuntime } from "./console-runtime";

/** A failed start (database down at boot) is retried: the pages work meanwhile, read-only. */
const RETRY_START_MS = 10_000;
/** Next exits shortly after SIGTERM; the node gets this long to mark itself stopped. */
const STOP_GRACE_MS = 5_000;

const globalForNode = globalThis as typeof globalThis & { cycliumConsoleNode?: Promise<void> };

/**
 * Starts this console's Cyclium node once per process (SPEC section 1): the demo actors in
 * `trigger_only` mode, so events and schedules fire here and every fire creates the pending
 * episode plus a deferred trigger request that a full-mode worker executes; the workflow
 * engine and trigger scheduler run here too. It registers in cyclium_nodes like any node.
 */
export function startConsoleNode(): Promise<void> {
  globalForNode.cycliumConsoleNode ??= startWithRetry();
  return globalForNode.cycliumConsoleNode;
}

async function startWithRetry(): Promise<void> {
  const env = getWebEnv();
  const logger = pino({ base: { app: "cyclium-web", node: getNodeInfo().identity } });
  if (!env.CYCLIUM_WEB_NODE) {
    logger.info({}, "CYCLIUM_WEB_NODE=false: serving the console without a Cyclium node");
    return;
  }
  for (;;) {
    try {
      const node = await startNode(logger);
      stopOnSignals(node, logger);
      return;
    } catch (error) {
      logger.error(
        { err: error },
        `console node did not start; retrying in ${RETRY_START_MS / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, RETRY_START_MS));
    }
  }
}

async function startNode(logger: pino.Logger): Promise<CycliumNode> {
  const env = getWebEnv();
  const info = getNodeInfo();
  const db = getPool();
  const telemetry = getWebTelemetry();
  const deployment = consoleDeployment({ reviewCron: env.CYCLIUM_DEMO_REVIEW_CRON });
  const workflows = workflowExtension(deployment.workflows);
  const node = await createCycliumNode({
    db,
    databaseUrl: env.DATABASE_URL,
    kind: "web",
    mode: "trigger_only",
    nodeIdentity: info.identity,
    stack: info.stack,
    env: info.env,
    workClaims: env.CYCLIUM_WORK_CLAIMS,
    leaseSeconds: env.CYCLIUM_WORK_CLAIMS_LEASE_SECONDS,
    // Deferred requests are executed by workers; the console never polls for them.
    poller: { enabled: false, intervalMs: 5_000, sourceStack: null },
    actors: deployment.actors,
    strategies: deployment.strategies,
    extensions: [
      workflows,
      triggerExtension({
        triggers: deployment.triggers,
        workflows: deployment.workflows,
        engine: workflows,
      }),
    ],
    logger,
    telemetry,
  });
  await node.start();
  setConsoleRuntime({
    nodeIdentity: info.identity,
    registry: node.registry,
    triggers: deployment.triggers,
    workflows: deployment.workflows,
    fire: (request) => node.host.fire(request),
    deferExisting: (episodes) =>
      node.deferred.deferExisting(episodes.map((episode) => ({ episode }))),
    startWorkflow: async (request) => {
      const engine = workflows.engine;
      if (!engine) throw new Error("the console's workflow engine is not running");
      return engine.startWorkflow(request);
    },
    recovery: createRecovery({
      db,
      node: info.identity,
      scope: { stack: info.stack, env: info.env },
      claims: node.claims,
      leaseSeconds: env.CYCLIUM_WORK_CLAIMS_LEASE_SECONDS,
      registry: node.registry,
      target: deferringTarget(node),
      bus: node.bus,
      telemetry,
      logger,
    }),
  });
  logger.info({ actors: node.host.actorIds() }, "console node started (trigger_only)");
  return node;
}

/**
 * Where the console's on-demand sweep sends restarted episodes: not to a local queue (a
 * trigger-only node executes nothing) but to workers, as deferred trigger requests.
 */
function deferringTarget(node: CycliumNode): RecoveryTarget {
  return {
    hasActor: () => true,
    async enqueueEpisode(episodeId) {
      const { rows } = await node.db.query<EpisodeRow>(
        `SELECT ${episodeColumns()} FROM cyclium_episodes WHERE id = $1 AND status = 'pending'`,
        [episodeId],
      );
      const row = rows[0];
      if (row === undefined) return { ok: false, reason: "not_pending" };
      await node.deferred.deferExisting([{ episode: toEpisode(row), opts: { recovered: true } }]);
      return { ok: true };
    },
  };
}

function stopOnSignals(node: CycliumNode, logger: pino.Logger): void {
  const stop = (signal: string) => {
    logger.info({ signal }, "stopping the console node");
    setConsoleRuntime(null);
    void Promise.race([
      node.stop({ graceMs: STOP_GRACE_MS }),
      new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS + 2_000)),
    ]).catch((error: unknown) => logger.error({ err: error }, "console node stop failed"));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
