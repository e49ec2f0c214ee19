import { startPrivateTestServer, type PrivateTestServer } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "./testing/index";

// Issue 18, point 2: a 1-3 s PostgreSQL outage, no process killed. Before queue ownership and
// write retries, 127 of 150 queued episodes stayed pending for good after such a restart.
const WORKER = fileURLToPath(new URL("./testing/recovery-worker-process.ts", import.meta.url));

let server: PrivateTestServer;
let pool: pg.Pool;
const processes: TestProcess[] = [];

beforeAll(async () => {
  server = await startPrivateTestServer();
  pool = new pg.Pool({ connectionString: server.url, max: 2 });
  pool.on("error", () => undefined);
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await pool.end().catch(() => undefined);
  await server.remove();
});

async function statuses(ids: readonly string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM cyclium_episodes WHERE id = ANY($1::uuid[])
      GROUP BY status`,
    [ids],
  );
  return new Map(rows.map((row) => [row.status, row.n]));
}

describe("a PostgreSQL restart while a worker drains its queue", () => {
  it("loses nothing: every queued episode completes once on the same worker", async () => {
    const worker = spawnTestProcess(WORKER, {
      DATABASE_URL: server.url,
      NODE_ID: "worker-db-restart",
      // The lease outlasts the outage, so the worker keeps its claims and resends its writes.
      LEASE_SECONDS: "20",
      MAX_CONCURRENT: "2",
      FIRE: JSON.stringify([
        { actorId: "victim_restart", count: 40, input: { steps: 3, stepMs: 40 } },
      ]),
    });
    processes.push(worker);
    const ready = await worker.waitFor((line) => line.event === "ready");
    const ids = ready.fired as string[];
    expect(ids).toHaveLength(40);
    await worker.waitFor((line) => line.event === "done");

    await server.stopImmediate();
    await sleep(2_000);
    await server.start();

    await vi.waitFor(async () => expect((await statuses(ids)).get("completed")).toBe(40), {
      timeout: 60_000,
      interval: 250,
    });
    for (const id of ids) {
      const runs = worker.lines.filter((line) => line.event === "done" && line.episodeId === id);
      expect(runs).toHaveLength(1);
    }
  });
});
