import { performance } from "node:perf_hooks";
import pg from "pg";
import type { WorkerRole } from "./protocol";

export interface CalibrationHooks {
  ready(): Promise<void>;
  go(): Promise<void>;
  done(
    updates: number,
    seconds: number,
    start: { queries: number; cpu: NodeJS.CpuUsage },
  ): Promise<void>;
  queryCount(): number;
}

/**
 * The commit ceiling: each client updates its own row of `bench_counter` in autocommit, one
 * statement per transaction, as fast as the server acknowledges. Every system's drain does at
 * least some commits per item, so its throughput is read against this number.
 */
export async function runCalibration(
  role: Extract<WorkerRole, { kind: "calibrate" }>,
  hooks: CalibrationHooks,
): Promise<void> {
  const clients: pg.Client[] = [];
  try {
    for (let i = 0; i < role.clients; i += 1) {
      const client = new pg.Client({ connectionString: role.url });
      await client.connect();
      clients.push(client);
    }
    await hooks.ready();
    await hooks.go();
    const start = { queries: hooks.queryCount(), cpu: process.cpuUsage() };
    const started = performance.now();
    const until = started + role.seconds * 1000;
    const counts = await Promise.all(
      clients.map(async (client, index) => {
        let n = 0;
        while (performance.now() < until) {
          await client.query("UPDATE bench_counter SET n = n + 1 WHERE id = $1", [
            role.firstRow + index,
          ]);
          n += 1;
        }
        return n;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await hooks.done(
      counts.reduce((a, b) => a + b, 0),
      seconds,
      start,
    );
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
