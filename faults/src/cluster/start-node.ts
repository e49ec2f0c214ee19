import {
  createCycliumNode,
  type CycliumNode,
  type NodeExtension,
  PreparingClient,
  Telemetry,
} from "@cyclium/core/worker";
import pg from "pg";
import { pino } from "pino";
import { HistoryWriter } from "../history/history-writer";
import { recordTelemetry } from "../history/record-telemetry";
import { realNow } from "../history/records";
import { faultActors } from "./fault-actors";
import type { TNodeEnv } from "./env";

export interface StartedNode {
  node: CycliumNode;
  pool: pg.Pool;
  history: HistoryWriter;
  /** Graceful stop: drain, mark the node stopped, close everything. */
  stop(): Promise<void>;
}

/**
 * One Cyclium node of the suite's cluster, wired like apps/worker does it (createCycliumNode on a
 * pool plus one LISTEN connection), with the history recorder on its telemetry. Logs go to a file
 * per process, so a failed run can be read afterwards next to its history.
 */
export async function startNode(
  env: TNodeEnv,
  options: { kind: "worker" | "web"; extensions: NodeExtension[] },
): Promise<StartedNode> {
  const identity = env.CYCLIUM_NODE_IDENTITY;
  const history = new HistoryWriter(env.FAULTS_HISTORY_FILE, `${identity}#${process.pid}`);
  const logger = pino(
    { level: "info", base: { node: identity, pid: process.pid } },
    pino.destination({ dest: env.FAULTS_LOG_FILE, mkdir: true, sync: true }),
  );
  // Sixteen connections: six slots for each of two busy actors, their heartbeats, the poller and
  // recovery; fewer made renewals queue behind journal writes on a loaded machine. Named prepared
  // statements, as runWorker's pool on a direct connection: they must survive restarts and cuts.
  const pool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: 16,
    Client: PreparingClient,
  });
  pool.on("error", (err) => logger.warn({ err }, "idle database connection failed"));
  const telemetry = new Telemetry(logger);
  recordTelemetry(telemetry, history);
  const worker = options.kind === "worker";
  const node = await createCycliumNode({
    db: pool,
    databaseUrl: env.DATABASE_URL,
    kind: options.kind,
    mode: worker ? "full" : "trigger_only",
    nodeIdentity: identity,
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: env.CYCLIUM_WORK_CLAIMS_LEASE_SECONDS,
    poller: {
      enabled: worker,
      intervalMs: env.CYCLIUM_TRIGGER_POLL_INTERVAL_MS,
      sourceStack: null,
    },
    actors: faultActors(history, identity),
    dynamicActors: false,
    extensions: options.extensions,
    logger,
    telemetry,
    // No random wait before triggered inserts: every node then races for every dedupe key at the
    // same instant, the hardest case for exactly-once creation.
    jitterMs: 0,
    telemetryRollups: false,
    version: "faults",
  });
  await node.start();
  history.write({ op: "node", event: "ready", skewMs: Math.round(Date.now() - realNow()) });
  return {
    node,
    pool,
    history,
    async stop() {
      history.write({ op: "node", event: "stopping" });
      await node.stop({ graceMs: 5_000 });
      await pool.end();
      history.close();
    },
  };
}
