import { createCycliumNode, silentLogger, Telemetry, type CycliumNode } from "@cyclium/core/worker";
import { testActors, testStrategies } from "./test-actors";

type NodeOptions = Parameters<typeof createCycliumNode>[0];

export interface WriterNodeOptions {
  db: NodeOptions["db"];
  databaseUrl: string;
  nodeIdentity?: string;
  leaseSeconds?: number;
  /** The test actors by default; a test adding its own passes them all. */
  actors?: NodeOptions["actors"];
  strategies?: NodeOptions["strategies"];
  telemetry?: Telemetry;
}

/**
 * The multi-process tests' writer: a trigger_only node in the test process (the console's
 * role) that fires onto the database for the spawned workers to run, started. It runs no
 * poller, so every episode it fires is run by a worker.
 */
export async function startWriterNode(options: WriterNodeOptions): Promise<CycliumNode> {
  const writer = await createCycliumNode({
    db: options.db,
    databaseUrl: options.databaseUrl,
    kind: "web",
    mode: "trigger_only",
    nodeIdentity: options.nodeIdentity ?? "writer",
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: options.leaseSeconds ?? 30,
    poller: { enabled: false, intervalMs: 5_000, sourceStack: null },
    actors: options.actors ?? testActors,
    strategies: options.strategies ?? testStrategies,
    dynamicActors: false,
    telemetryRollups: false,
    jitterMs: 0,
    logger: silentLogger,
    telemetry: options.telemetry ?? new Telemetry(),
  });
  await writer.start();
  return writer;
}
