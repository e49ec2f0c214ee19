import { performance } from "node:perf_hooks";
import pg from "pg";
import type { WorkerProcess } from "../child/worker-process";
import { costSnapshot, itemCosts, type ItemCosts } from "../costs/item-costs";
import { PostgresCpu } from "../pg/postgres-cpu";
import { withClient } from "../pg/server";
import type { BenchSystem } from "../systems/system";
import { checkExecuted } from "./check-executed";
import { freshDatabase, sleep, spawnConsumers, type BenchContext } from "./context";

export interface DrainRun {
  system: BenchSystem["id"];
  processes: number;
  repetition: number;
  /** Completions committed when the clock stopped. */
  completed: number;
  seconds: number;
  itemsPerSecond: number;
  /** True when measured over a fixed window (a `slow` system), not until every item was done. */
  windowed: boolean;
  commitsPerItem: number;
  walBytesPerItem: number;
  queriesPerItem: number;
  workerCpuMsPerItem: number;
  postgresCpuMsPerItem: number | null;
  /** Statements, row writes, index entries and WAL by table per item (read outside the window). */
  /** Optional only in a JSON written before the costs existed (`--render`). */
  costs?: ItemCosts;
  problems: string[];
}

/** Gives up on a drain after this long: something is stuck. */
const DRAIN_TIMEOUT_MS = 15 * 60_000;

/**
 * Drain: `items` pre-inserted, then `processes` worker processes started at once; the clock runs
 * from `go` until the database shows every completion committed. The monitor polls slowly until
 * the workers report 95% executed, then every 5 ms; its own queries are subtracted from the
 * commit count.
 */
export async function runDrain(
  context: BenchContext,
  system: BenchSystem,
  processes: number,
  repetition: number,
): Promise<DrainRun> {
  const { server, config } = context;
  const items = config.items;
  const database = await freshDatabase(context, system, `drain_p${processes}_r${repetition}`);
  let workers: WorkerProcess[] = [];
  const resumeAutovacuum = await server.pauseAutovacuum();
  try {
    await system.seed(database.url, items);
    await server.vacuum(database.name);
    await server.checkpoint();
    await server.waitForNoBackends(database.name);
    const costsBefore = await costSnapshot(context, database, "before");
    await server.waitForNoBackends(database.name);
    const before = await server.counters(database.name);
    workers = await spawnConsumers(context, system, database.url, processes, false);
    const monitor = new pg.Client({ connectionString: database.url });
    monitor.on("error", () => undefined);
    await monitor.connect();
    let monitorQueries = 0;
    const remaining = async (): Promise<number> => {
      monitorQueries += 1;
      const { rows } = await monitor.query<{ remaining: number }>(system.remainingSql);
      return rows[0]?.remaining ?? items;
    };
    const cpuBefore = await context.postgresCpu?.read();
    const started = performance.now();
    for (const worker of workers) worker.send({ type: "go" });

    let left: number;
    if (system.slow) {
      await sleep(config.slowWindowMs);
      left = await remaining();
    } else {
      for (;;) {
        const executed = workers.reduce((sum, worker) => sum + worker.executed, 0);
        const near = executed >= items * 0.95;
        if (near) {
          left = await remaining();
          if (left === 0) break;
        }
        if (performance.now() - started > DRAIN_TIMEOUT_MS) {
          throw new Error(`${system.id} drain stuck: ${await remaining()} items left`);
        }
        await sleep(near ? 5 : 100);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = await context.postgresCpu?.read();
    const stops = await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
    await monitor.end();
    await server.waitForNoBackends(database.name);
    const after = await server.counters(database.name);
    const costsAfter = await costSnapshot(context, database, "after");

    const executed = stops.flatMap((stop) => stop.executed);
    const completedNow = items - left;
    const check = await withClient(database.url, (client) =>
      system.check(client, system.slow ? executed.length : items),
    );
    const problems = [
      ...check.problems,
      ...checkExecuted(executed, system.slow ? undefined : items),
    ];
    const per = (value: number) => value / Math.max(1, completedNow);
    const roundTrips = stops.reduce((sum, stop) => sum + stop.usage.queries, 0);
    const costs = await itemCosts(context, {
      database,
      before: costsBefore,
      after: costsAfter,
      countersBefore: before,
      countersAfter: after,
      completed: completedNow,
      ownStatements: monitorQueries,
      roundTrips,
    });
    return {
      system: system.id,
      processes,
      repetition,
      completed: completedNow,
      seconds,
      itemsPerSecond: completedNow / seconds,
      windowed: system.slow === true,
      commitsPerItem: per(after.commits - before.commits - monitorQueries),
      walBytesPerItem: per(after.walBytes - before.walBytes),
      queriesPerItem: per(roundTrips),
      workerCpuMsPerItem: per(stops.reduce((sum, stop) => sum + stop.usage.cpuMs, 0)),
      postgresCpuMsPerItem:
        cpuBefore && cpuAfter ? per(PostgresCpu.spent(cpuBefore, cpuAfter)) : null,
      costs,
      problems,
    };
  } finally {
    for (const worker of workers) worker.kill();
    await resumeAutovacuum();
    await server.dropDatabase(database.name);
  }
}
