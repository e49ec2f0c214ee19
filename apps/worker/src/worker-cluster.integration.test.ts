import { type CycliumNode, Telemetry } from "@cyclium/core/worker";
import { clearModeOverride, setModeOverride } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, type WorkerProcess } from "./testing/spawn-worker";
import { startWriterNode } from "./testing/start-writer-node";
import { TEST_ACTOR_IDS } from "./testing/test-actors";

// Three real worker processes against one database, fed by a trigger_only node in this process
// (the console's role): the multi-node acceptance tests of the runtime issue.
let db: TestDatabase;
let workers: WorkerProcess[] = [];
let writer: CycliumNode;
const writerTelemetry = new Telemetry();
const IDENTITIES = ["worker-1", "worker-2", "worker-3"];

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
  workers = IDENTITIES.map((identity) =>
    spawnWorker({
      identity,
      // A long poll interval: pickup within the tests can only have come from NOTIFY wake-ups.
      env: { DATABASE_URL: db.url, CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "30000" },
    }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  writer = await startWriterNode({ db: db.pool, databaseUrl: db.url, telemetry: writerTelemetry });
}, 120_000);

afterAll(async () => {
  await writer?.stop({ graceMs: 0 });
  const exits = await Promise.all(workers.map((worker) => worker.stop()));
  await db?.drop();
  for (const exit of exits) expect(exit.code).toBe(0);
}, 60_000);

async function fireMany(
  actorIds: readonly string[],
  count: number,
  input: object,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from(
      { length: Math.min(25, count - start) },
      (_, i) => actorIds[(start + i) % actorIds.length] ?? "alpha",
    );
    const results = await Promise.all(
      batch.map((actorId) =>
        writer.host.fire({ actorId, expectationId: "run", triggerType: "manual", input }),
      ),
    );
    for (const result of results) if (result.kind === "created") ids.push(result.episodeId);
  }
  return ids;
}

async function waitAllCompleted(episodeIds: string[], timeout = 90_000) {
  await vi.waitFor(
    async () => {
      // A request is consumed (deleted) by the statement that starts its episode: no open one
      // is left, and every episode ended.
      const { rows } = await db.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM cyclium_trigger_requests WHERE episode_id = ANY($1::uuid[]) AND status <> 'completed'",
        [episodeIds],
      );
      expect(Number(rows[0]?.n)).toBe(0);
      const ended = await db.pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM cyclium_episodes WHERE id = ANY($1::uuid[]) AND status NOT IN ('pending', 'running')",
        [episodeIds],
      );
      expect(Number(ended.rows[0]?.n)).toBe(episodeIds.length);
    },
    { timeout, interval: 100 },
  );
}

async function metricSum(name: string): Promise<number> {
  const all = await Promise.all(
    workers.map(async (worker) => (await worker.metrics()).get(name) ?? 0),
  );
  return all.reduce((a, b) => a + b, 0);
}

describe("a cluster of three worker processes", () => {
  it("executes 500 deferred requests exactly once each, spread over the three workers", async () => {
    const episodeIds = await fireMany(TEST_ACTOR_IDS, 500, { steps: 1, stepMs: 5 });
    expect(episodeIds).toHaveLength(500);
    await waitAllCompleted(episodeIds);

    const left = await db.pool.query(
      "SELECT id FROM cyclium_trigger_requests WHERE status IN ('pending', 'claimed')",
    );
    expect(left.rowCount).toBe(0);
    const episodes = await db.pool.query<{ status: string; n: string }>(
      "SELECT status, count(*) AS n FROM cyclium_episodes WHERE id = ANY($1::uuid[]) GROUP BY status",
      [episodeIds],
    );
    expect(episodes.rows).toEqual([{ status: "completed", n: "500" }]);

    // Exactly once: one run per episode (one attempt of its own lease, one journal entry, written
    // by the node that started it from its request), and the workers' own counters add up to 500,
    // not more. No claim row: each run held its lease in its episode's row (SPEC section 4).
    const runs = await db.pool.query<{
      executed_by: string;
      steps: string;
      nodes: string;
      attempt: number;
    }>(
      `SELECT e.executed_by, e.attempt,
              (SELECT count(*) FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS steps,
              (SELECT string_agg(DISTINCT s.node, ',') FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS nodes
         FROM cyclium_episodes e
        WHERE e.id = ANY($1::uuid[])`,
      [episodeIds],
    );
    expect(runs.rowCount).toBe(500);
    const claimRows = await db.pool.query(
      "SELECT 1 FROM cyclium_work_claims WHERE dedupe_key = ANY($1::text[])",
      [episodeIds.map((id) => `episode:${id}`)],
    );
    expect(claimRows.rowCount).toBe(0);
    for (const run of runs.rows) {
      expect(run).toMatchObject({
        steps: "1",
        attempt: 1,
        nodes: run.executed_by,
      });
    }
    expect(await metricSum("cyclium_trigger_request_dispatched_total")).toBe(500);
    expect(await metricSum("cyclium_episode_started_total")).toBe(500);

    const perWorker = new Map<string, number>();
    for (const run of runs.rows)
      perWorker.set(run.executed_by, (perWorker.get(run.executed_by) ?? 0) + 1);
    console.log("requests per worker", Object.fromEntries(perWorker));
    expect([...perWorker.keys()].sort()).toEqual(IDENTITIES);
    for (const count of perWorker.values()) expect(count).toBeGreaterThanOrEqual(50);
  }, 150_000);

  it("delivers one published event to every node, and exactly one episode results", async () => {
    const dedupedBefore = await Promise.all(
      workers.map(async (w) => (await w.metrics()).get("cyclium_episode_deduped_total") ?? 0),
    );
    let writerDeduped = 0;
    const off = writerTelemetry.subscribe(() => (writerDeduped += 1), {
      events: ["cyclium.episode.deduped"],
    });

    await writer.bus.publish("test.beta.ping", { resourceId: "r-1" });

    const episode = await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ id: string; source_node: string; status: string }>(
          "SELECT id, source_node, status FROM cyclium_episodes WHERE actor_id = 'beta' AND expectation_id = 'on_ping'",
        );
        expect(rows).toHaveLength(1);
        expect(rows[0]?.status).toBe("completed");
        return rows[0];
      },
      { timeout: 20_000, interval: 100 },
    );
    // Every node fired: the one whose insert won, and three that lost the dedupe race.
    const losers = await vi.waitFor(
      async () => {
        const after = await Promise.all(
          workers.map(async (w) => (await w.metrics()).get("cyclium_episode_deduped_total") ?? 0),
        );
        const names = workers
          .filter((_, i) => (after[i] ?? 0) - (dedupedBefore[i] ?? 0) === 1)
          .map((w) => w.identity);
        if (writerDeduped === 1) names.push("writer");
        expect(names).toHaveLength(3);
        return names;
      },
      { timeout: 10_000, interval: 100 },
    );
    off();
    expect([...losers, episode?.source_node].sort()).toEqual(
      ["worker-1", "worker-2", "worker-3", "writer"].sort(),
    );
    const count = await db.pool.query(
      "SELECT 1 FROM cyclium_episodes WHERE actor_id = 'beta' AND expectation_id = 'on_ping'",
    );
    expect(count.rowCount).toBe(1);
  }, 60_000);

  it("stops one worker taking an actor's requests within a second of an override from another process", async () => {
    const { rows: clock } = await db.pool.query<{ now: Date }>("SELECT now()");
    const setAt = clock[0]?.now ?? new Date();
    await setModeOverride({
      db: db.pool,
      targetNode: "worker-1",
      actorId: "alpha",
      mode: "trigger_only",
      setBy: "test",
    });
    // worker-1 records its modes in cyclium_nodes as soon as they change (database clock).
    const appliedAt = await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{
          overrides: Record<string, string>;
          last_seen_at: Date;
        }>("SELECT overrides, last_seen_at FROM cyclium_nodes WHERE identity = 'worker-1'");
        expect(rows[0]?.overrides).toEqual({ alpha: "trigger_only" });
        return rows[0]?.last_seen_at ?? new Date(0);
      },
      { timeout: 2_000, interval: 20 },
    );
    expect(appliedAt.getTime() - setAt.getTime()).toBeLessThan(1_000);

    const during = await fireMany(["alpha", "beta"], 120, { steps: 1, stepMs: 20 });
    await waitAllCompleted(during);
    const taken = await db.pool.query<{ actor_id: string; executed_by: string; n: string }>(
      `SELECT actor_id, executed_by, count(*) AS n FROM cyclium_episodes
        WHERE id = ANY($1::uuid[]) GROUP BY actor_id, executed_by`,
      [during],
    );
    const count = (actor: string, node: string) =>
      Number(taken.rows.find((r) => r.actor_id === actor && r.executed_by === node)?.n ?? 0);
    expect(count("alpha", "worker-1")).toBe(0);
    expect(count("alpha", "worker-2") + count("alpha", "worker-3")).toBe(60);
    expect(count("beta", "worker-1")).toBeGreaterThan(0);

    await clearModeOverride({ db: db.pool, targetNode: "worker-1", actorId: "alpha" });
    await vi.waitFor(async () => {
      const { rows } = await db.pool.query<{ overrides: object }>(
        "SELECT overrides FROM cyclium_nodes WHERE identity = 'worker-1'",
      );
      expect(rows[0]?.overrides).toEqual({});
    });
    const after = await fireMany(["alpha"], 60, { steps: 1, stepMs: 20 });
    await waitAllCompleted(after);
    const resumed = await db.pool.query(
      "SELECT 1 FROM cyclium_episodes WHERE id = ANY($1::uuid[]) AND executed_by = 'worker-1'",
      [after],
    );
    expect(resumed.rowCount).toBeGreaterThan(0);
  }, 120_000);
});
