import { loadWorkClaims, loadDeployment, isCycliumError } from "@cyclium/core/console";
import type { CycliumNode } from "@cyclium/core/console";
import { pino } from "pino";
import { getWebEnv } from "../../env";
import { getPool } from "../db";
import { getWebTelemetry } from "../metrics/web-metrics";
import { getNodeInfo } from "../node-info";
import { setConsoleRuntime } from "./console-runtime";
import { createConsoleNode } from "./create-console-node";

/** A failed start (database down at boot) is retried: the pages work meanwhile, read-only. */
const RETRY_START_MS = 10_000;
/** On SIGTERM the node gets this long to mark itself stopped before the process exits. */
const STOP_GRACE_MS = 5_000;

const globalForNode = globalThis as typeof globalThis & {
  cycliumConsoleNode?: Promise<void>;
  /** The node once started: what a stop signal stops before the process exits. */
  cycliumConsoleStarted?: CycliumNode;
  /** Set by a stop signal: a start still under way stops there instead of retrying. */
  cycliumConsoleStopping?: boolean;
};

/** Starts this process's console node once (instrumentation.ts), retrying until it runs. */
export function startConsoleNode(): Promise<void> {
  globalForNode.cycliumConsoleNode ??= startWithRetry();
  return globalForNode.cycliumConsoleNode;
}

async function startWithRetry(): Promise<void> {
  const env = getWebEnv();
  const info = getNodeInfo();
  const logger = pino({ base: { app: "cyclium-web", node: info.identity } });
  stopOnSignals(logger);
  if (!env.CYCLIUM_WEB_NODE) {
    logger.info({}, "CYCLIUM_WEB_NODE=false: serving the console without a Cyclium node");
    return;
  }
  while (!globalForNode.cycliumConsoleStopping) {
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
        // Loaded now, not bundled at build time: one console build serves any deployment, and a
        // team's module anywhere on disk is imported as Node imports it (its own @cyclium/core).
        deployment: await loadDeployment(env.CYCLIUM_DEPLOYMENT),
        telemetry: getWebTelemetry(),
        logger,
      });
      globalForNode.cycliumConsoleStarted = node;
      // Stopped while it started: the signal's handler waits for this start, then stops it.
      if (globalForNode.cycliumConsoleStopping) return;
      setConsoleRuntime(runtime);
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

/**
 * The console's stop: its start command (bin/cyclium-console.mjs) sets NEXT_MANUAL_SIG_HANDLE, so
 * Next leaves SIGTERM and SIGINT to this handler, which marks the node stopped (bounded, so a stuck
 * database cannot hold the exit) and then ends the process. Before, Next's own handler exited
 * first, or (with this handler alone) the server kept serving, and the row stayed `running`.
 */
function stopOnSignals(logger: pino.Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    // A second signal (the start command passes its own on, a group kill sends one to each) must
    // not fall through to Node's default exit while the node is marking itself stopped.
    if (stopping) return;
    stopping = true;
    globalForNode.cycliumConsoleStopping = true;
    logger.info({ signal }, "stopping the console");
    setConsoleRuntime(null);
    // The node may still be starting (instrumentation does not wait for it, so the server answers
    // first): its row is already `running`, so wait for that start before stopping the node.
    const stopNode = async () => {
      await globalForNode.cycliumConsoleNode;
      await globalForNode.cycliumConsoleStarted?.stop({ graceMs: STOP_GRACE_MS });
    };
    void Promise.race([
      stopNode(),
      new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS + 2_000)),
    ])
      .catch((error: unknown) => logger.error({ err: error }, "console node stop failed"))
      .finally(() => {
        logger.info({ signal }, "console stopped");
        logger.flush();
        process.exit(0);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
