import { loadWorkClaims } from "@cyclium/core/claims";
import { isCycliumError } from "@cyclium/core/errors";
import type { CycliumNode } from "@cyclium/core/nodes";
import { pino } from "pino";
import { getWebEnv } from "../../env";
import { getPool } from "../db";
import { getWebTelemetry } from "../metrics/web-metrics";
import { getNodeInfo } from "../node-info";
import { builtDeployment } from "./built-deployment";
import { setConsoleRuntime } from "./console-runtime";
import { createConsoleNode } from "./create-console-node";

/** A failed start (database down at boot) is retried: the pages work meanwhile, read-only. */
const RETRY_START_MS = 10_000;
/** Next exits shortly after SIGTERM; the node gets this long to mark itself stopped. */
const STOP_GRACE_MS = 5_000;

const globalForNode = globalThis as typeof globalThis & { cycliumConsoleNode?: Promise<void> };

/** Starts this process's console node once (instrumentation.ts), retrying until it runs. */
export function startConsoleNode(): Promise<void> {
  globalForNode.cycliumConsoleNode ??= startWithRetry();
  return globalForNode.cycliumConsoleNode;
}

async function startWithRetry(): Promise<void> {
  const env = getWebEnv();
  const info = getNodeInfo();
  const logger = pino({ base: { app: "cyclium-web", node: info.identity } });
  if (!env.CYCLIUM_WEB_NODE) {
    logger.info({}, "CYCLIUM_WEB_NODE=false: serving the console without a Cyclium node");
    return;
  }
  for (;;) {
    try {
      const workClaims = await loadWorkClaims({
        setting: env.CYCLIUM_WORK_CLAIMS,
        db: getPool(),
        telemetry: getWebTelemetry(),
        logger,
      });
      const { node, runtime } = await createConsoleNode({
        db: getPool(),
        // The node's LISTEN connection: direct when DATABASE_URL goes through PgBouncer.
        databaseUrl: env.CYCLIUM_LISTEN_DATABASE_URL ?? env.DATABASE_URL,
        nodeIdentity: info.identity,
        env: info.env,
        stack: info.stack,
        workClaims,
        leaseSeconds: env.CYCLIUM_WORK_CLAIMS_LEASE_SECONDS,
        deployment: builtDeployment(env.CYCLIUM_DEPLOYMENT),
        telemetry: getWebTelemetry(),
        logger,
      });
      setConsoleRuntime(runtime);
      stopOnSignals(node, logger);
      logger.info({ actors: node.host.actorIds() }, "console node started (trigger_only)");
      return;
    } catch (error) {
      if (isCycliumError(error, "invalid_config")) {
        // Retrying cannot fix a wrong adapter: say so once and serve the pages without a node.
        logger.error({ err: error }, "console node not started: invalid configuration");
        return;
      }
      logger.error(
        { err: error },
        `console node did not start; retrying in ${RETRY_START_MS / 1000} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, RETRY_START_MS));
    }
  }
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
