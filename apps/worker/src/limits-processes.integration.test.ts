import type { CycliumNode } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, type WorkerProcess } from "./testing/spawn-worker";
import { startWriterNode } from "./testing/start-writer-node";

// Cluster-wide limits (SPEC section 16) with four real worker processes on one PostgreSQL, fed
// by a trigger_only node in this process (the console's role). What a limit promises is read
// back from the database: the episodes' own started_at and finished_at.
let db: TestDatabase;
let workers: WorkerProcess[] = [];
let writer: CycliumNode;
const IDENTITIES = ["worker-1", "worker-2", "worker-3", "worker-4"];

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
  workers = IDENTITIES.map((identity) =>
    spawnWorker({
      identity,
      // A long poll interval: a freed slot can only have been taken through a NOTIFY or timer.
      env: { DATABASE_URL: db.url, CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "30000" },
    }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  writer = await startWriterNode({ db: db.pool, databaseUrl: db.url });
}, 120_000);

afterAll(async () => {
  await writer?.stop({ graceMs: 0 });
  const exits = await Promise.all(workers.map((worker) => worker.stop()));
  await db?.drop();
  for (const exit of exits) expect(exit.code).toBe(0);
}, 60_000);

async function metricSum(name: string): Promise<number> {
  const all = await Promise.all(workers.map(async (worker) => (await worker.metrics()).get(name)));
  return all.reduce<number>((sum, value) => sum + (value ?? 0), 0);
}

async function fire(actorId: string, inputs: readonly object[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < inputs.length; start += 50) {
    const results = await Promise.all(
      inputs
        .slice(start, start + 50)
        .map((input) =>
          writer.host.fire({ actorId, expectationId: "run", triggerType: "manual", input }),
        ),
    );
    for (const result of results) if (result.kind === "created") ids.push(result.episodeId);
  }
  expect(ids).toHaveLength(inputs.length);
  return ids;
}

async function waitCompleted(ids: readonly string[], timeout: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM cyclium_episodes WHERE id = ANY($1::uuid[]) AND status = 'completed'",
        [ids],
      );
      expect(rows[0]?.n).toBe(ids.length);
    },
    { timeout, interval: 200 },
  );
}

/**
 * The most episodes of `ids` (per `groupBy` of their input, when given) that ran at the same
 * instant, from their started_at/finished_at (the database clock): at an instant where one ends
 * and another starts, the end counts first (a slot freed by an end is what let the start in).
 */
async function maxConcurrent(ids: readonly string[], groupBy?: string): Promise<number> {
  const group = groupBy === undefined ? "''" : `input->>'${groupBy}'`;
  const { rows } = await db.pool.query<{ peak: number }>(
    `WITH edges AS (
       SELECT ${group} AS g, started_at AS t, 1 AS d FROM cyclium_episodes WHERE id = ANY($1::uuid[])
       UNION ALL
       SELECT ${group}, finished_at, -1 FROM cyclium_episodes WHERE id = ANY($1::uuid[])
     ), running AS (
       SELECT sum(d) OVER (PARTITION BY g ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS n FROM edges
     )
     SELECT max(n)::int AS peak FROM running`,
    [ids],
  );
  return rows[0]?.peak ?? 0;
}

describe("cluster-wide limits across four worker processes", () => {
  it("never runs more than a global limit of 5 (500 episodes)", async () => {
    const ids = await fire(
      "limited_global",
      Array.from({ length: 500 }, () => ({ steps: 1, stepMs: 10 })),
    );
    await waitCompleted(ids, 120_000);
    expect(await maxConcurrent(ids)).toBe(5);
    // Every worker took part, and each episode ran once.
    const { rows } = await db.pool.query<{ nodes: number; attempts: number }>(
      `SELECT count(DISTINCT executed_by)::int AS nodes, max(attempt)::int AS attempts
         FROM cyclium_episodes WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows[0]).toEqual({ nodes: 4, attempts: 1 });
    // Nobody spins: a node claims at most the limit's room, skips requests refused while their
    // limit is full, and polls again only when an end wakes it. Each end wakes all four, and
    // those that lose the race are refused once each (measured 1.8 refusals per episode).
    const refused = await metricSum("cyclium_episode_concurrency_limited_total");
    console.log(`global limit: ${refused} refused starts for ${ids.length} episodes`);
    expect(refused).toBeLessThan(ids.length * 4);
  }, 150_000);

  it("serializes one key of a per-key limit of 1 while the other keys run", async () => {
    const inputs = ["acme", "globex", "initech", "umbrella"].flatMap((customer) =>
      Array.from({ length: 8 }, () => ({ customer, steps: 1, stepMs: 60 })),
    );
    const ids = await fire("limited_key", inputs);
    await waitCompleted(ids, 60_000);
    expect(await maxConcurrent(ids, "customer")).toBe(1);
    // Keys do not wait for each other: four ran at once at some point.
    expect(await maxConcurrent(ids)).toBeGreaterThanOrEqual(3);
  }, 90_000);

  it("holds a rate limit of 20 per second over 10 s", async () => {
    const ids = await fire(
      "limited_rate",
      Array.from({ length: 220 }, () => ({ steps: 1, stepMs: 1 })),
    );
    await waitCompleted(ids, 60_000);
    // Starts within any sliding second: counted from each start, the densest second.
    const { rows } = await db.pool.query<{ peak: number; span_ms: number }>(
      `WITH s AS (SELECT id, started_at AS t FROM cyclium_episodes WHERE id = ANY($1::uuid[]))
       SELECT (SELECT max(n) FROM (SELECT count(*) AS n FROM s a JOIN s b
                 ON b.t >= a.t AND b.t < a.t + interval '1 second' GROUP BY a.id) c)::int AS peak,
              (extract(epoch FROM max(t) - min(t)) * 1000)::int AS span_ms
         FROM s`,
      [ids],
    );
    expect(rows[0]?.peak).toBeLessThanOrEqual(20);
    // 220 starts at 20 a second take at least 10 s; not much longer (no one slept past a slot).
    expect(rows[0]?.span_ms).toBeGreaterThanOrEqual(10_000);
    expect(rows[0]?.span_ms).toBeLessThan(13_000);
  }, 90_000);
});
