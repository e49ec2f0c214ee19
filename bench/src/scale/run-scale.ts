/**
 * `pnpm bench --scale`: 1, 4, 8 and 16 real workers (runWorker, scale-worker.ts) on one
 * PostgreSQL, each size in a fresh database: what they cost idle, the LISTEN deliveries one
 * fired episode causes, a drain, and one recovery sweep of 1,000 orphans by all nodes at once.
 * Everything about PostgreSQL is read from outside (pg_stat_activity, pg_stat_database,
 * pg_stat_statements, /proc of the server); the deliveries are counted in the workers.
 */
import os from "node:os";
import { createClient } from "@cyclium/core";
import pg from "pg";
import { checkExecuted } from "../scenarios/check-executed";
import { freshDatabase, type BenchContext } from "../scenarios/context";
import { cycliumSystem } from "../systems/cyclium/system";
import { ScaleNode } from "./scale-node";
import { drain, leaveOrphans, measureIdle, probeNotify, sweepAtOnce } from "./scale-phases";
import type { ScaleConfig } from "./scale-config";

export type { ScaleConfig } from "./scale-config";

export interface ScalePoint {
  workers: number;
  load1: number;
  backends: number;
  idleCommitsPerSecond: number;
  /** Share of one core, all server processes (the cluster is the bench's own). */
  idleCpuCores: number | null;
  deliveriesPerFire: number;
  notifyStatementsPerFire: number | null;
  drainItemsPerSecond: number;
  /** Client backends of the workers at the drain's busiest poll. */
  drainPeakBackends: number;
  recoverySeconds: number;
  restarted: number;
  sweepFound: number;
  problems: string[];
}

type Log = (message: string) => void;

export async function runScale(
  context: BenchContext,
  config: ScaleConfig,
  log: Log,
): Promise<ScalePoint[]> {
  const points: ScalePoint[] = [];
  for (const workers of config.sizes) {
    const point = await runPoint(context, config, workers, log);
    log(`scale ×${workers}: ${JSON.stringify(point)}`);
    points.push(point);
  }
  return points;
}

/** One cluster size, in a database of its own: orphans, idle, NOTIFY probe, drain, sweep. */
async function runPoint(
  context: BenchContext,
  config: ScaleConfig,
  workers: number,
  log: Log,
): Promise<ScalePoint> {
  const { server } = context;
  const database = await freshDatabase(context, cycliumSystem, `scale_${workers}`);
  // Closed before the idle window and opened again after it: its pool is no worker's backend.
  let client = createClient({ connectionString: database.url });
  const nodes: ScaleNode[] = [];
  const monitor = new pg.Client({ connectionString: database.url });
  try {
    await leaveOrphans(database, client, config.orphans);
    await client.close();
    log(`scale ×${workers}: starting the workers`);
    for (let i = 0; i < workers; i += 1) {
      nodes.push(new ScaleNode(database.url, `scale-${i + 1}-of-${workers}`, false));
    }
    await Promise.all(nodes.map((node) => node.process.next("ready")));
    const idle = await measureIdle(context, database, config.idleSeconds);
    client = createClient({ connectionString: database.url });
    await monitor.connect();
    const notify = await probeNotify(context, database, nodes, client, config.probes);
    await client.close();
    const drained = await drain(database, monitor, config.drainItems);
    const sweep = await sweepAtOnce(nodes, monitor, config.orphans, log);

    const stopped = nodes.map((node) => node.process.next("scaleStopped"));
    for (const node of nodes) node.process.send({ type: "stop" });
    const stops = await Promise.all(stopped);
    await Promise.all(nodes.map((node) => node.process.exited));
    nodes.length = 0;
    const executed = stops.flatMap((s) => s.executedItems);
    const recovered = stops.flatMap((s) => s.recoveredItems);
    const problems = [
      ...checkExecuted(executed, config.drainItems).map((p) => `drain: ${p}`),
      ...checkExecuted(recovered, config.orphans).map((p) => `recovery: ${p}`),
    ];
    if (sweep.restarted !== config.orphans) {
      problems.push(`recovery: ${sweep.restarted} restarted, expected ${config.orphans}`);
    }
    return {
      workers,
      load1: os.loadavg()[0] ?? Number.NaN,
      backends: idle.backends,
      idleCommitsPerSecond: idle.commitsPerSecond,
      idleCpuCores: idle.cpuCores,
      ...notify,
      drainItemsPerSecond: drained.itemsPerSecond,
      drainPeakBackends: drained.peakBackends,
      recoverySeconds: sweep.seconds,
      restarted: sweep.restarted,
      sweepFound: sweep.found,
      problems,
    };
  } finally {
    for (const node of nodes) node.process.kill();
    await Promise.all(nodes.map((node) => node.process.exited));
    await monitor.end().catch(() => undefined);
    await client.close().catch(() => undefined);
    await server.waitForNoBackends(database.name, 30_000).catch(() => undefined);
    await server.dropDatabase(database.name);
  }
}
