import { WorkerProcess } from "../child/worker-process";
import { withClient } from "../pg/server";
import type { BenchContext } from "./context";

export interface CalibrationRun {
  processes: number;
  clientsPerProcess: number;
  repetition: number;
  updatesPerSecond: number;
  walBytesPerUpdate: number;
}

/**
 * The machine's commit ceiling: single-row UPDATEs in autocommit, each client on its own row,
 * from the same number of worker processes as the drain, with 1 client per process (a system
 * that commits from one connection at a time) and `concurrency` clients per process (one per
 * handler slot, which lets the server group commits).
 */
export async function runCalibration(
  context: BenchContext,
  processes: number,
  clientsPerProcess: number,
  repetition: number,
): Promise<CalibrationRun> {
  const { server, config } = context;
  const name = `${context.prefix}_calibration_p${processes}_c${clientsPerProcess}_r${repetition}`;
  const url = await server.createDatabase(name);
  const workers: WorkerProcess[] = [];
  try {
    const rows = processes * clientsPerProcess;
    await withClient(url, (client) =>
      client.query(
        `CREATE TABLE bench_counter (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0);
         INSERT INTO bench_counter (id) SELECT generate_series(0, ${rows - 1});`,
      ),
    );
    await server.checkpoint();
    await server.waitForNoBackends(name);
    for (let index = 0; index < processes; index += 1) {
      workers.push(
        new WorkerProcess({
          kind: "calibrate",
          url,
          clients: clientsPerProcess,
          firstRow: index * clientsPerProcess,
          seconds: config.calibrationSeconds,
        }),
      );
    }
    await Promise.all(workers.map((worker) => worker.next("ready")));
    const before = await server.counters(name);
    const results = workers.map((worker) => worker.next("calibrated"));
    for (const worker of workers) worker.send({ type: "go" });
    const done = await Promise.all(results);
    const after = await server.counters(name);
    await Promise.all(workers.map((worker) => worker.exited));
    const updates = done.reduce((sum, message) => sum + message.updates, 0);
    const seconds = Math.max(...done.map((message) => message.seconds));
    return {
      processes,
      clientsPerProcess,
      repetition,
      updatesPerSecond: updates / seconds,
      walBytesPerUpdate: (after.walBytes - before.walBytes) / Math.max(1, updates),
    };
  } finally {
    for (const worker of workers) worker.kill();
    await server.dropDatabase(name);
  }
}
