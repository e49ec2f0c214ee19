import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "./testing/index";

// Queued (pending) work across real process deaths, docs/queues-and-recovery.md: before
// `queued_by`, the episodes waiting in a killed worker's memory stayed pending forever.
const WORKER = fileURLToPath(new URL("./testing/recovery-worker-process.ts", import.meta.url));

let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

beforeEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.kill("SIGKILL")));
  await db.pool.query(
    "TRUNCATE cyclium_episodes, cyclium_work_claims, cyclium_nodes, cyclium_mode_overrides CASCADE",
  );
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await db.drop();
});

function worker(env: Record<string, string>): TestProcess {
  const child = spawnTestProcess(WORKER, { DATABASE_URL: db.url, LEASE_SECONDS: "2", ...env });
  processes.push(child);
  return child;
}

const RECOVERING = { RECOVERY: "on", RECOVERY_INTERVAL_MS: "300", STALE_AFTER_MS: "500" };

interface Row {
  id: string;
  status: string;
  attempt: number;
  queued_by: string | null;
  recovery_history: { node: string; policy: string; outcome: string; from?: string }[];
}

async function rows(ids: readonly string[]): Promise<Row[]> {
  const result = await db.pool.query<Row>(
    `SELECT id, status, attempt, queued_by, recovery_history
       FROM cyclium_episodes WHERE id = ANY($1::uuid[]) ORDER BY inserted_at, id`,
    [ids],
  );
  return result.rows;
}

async function waitForStatus(ids: readonly string[], status: string, timeout = 45_000) {
  await vi.waitFor(
    async () => {
      const found = await rows(ids);
      expect(found.filter((row) => row.status === status)).toHaveLength(ids.length);
    },
    { timeout, interval: 200 },
  );
}

/** A worker with two slots and six long episodes: two run, four wait in its queue. */
async function workerWithQueue(nodeId: string): Promise<{ a: TestProcess; ids: string[] }> {
  const a = worker({
    NODE_ID: nodeId,
    MAX_CONCURRENT: "2",
    FIRE: JSON.stringify([
      { actorId: "victim_restart", count: 6, input: { steps: 20, stepMs: 100 } },
    ]),
  });
  const ready = await a.waitFor((line) => line.event === "ready");
  const ids = ready.fired as string[];
  expect(ids).toHaveLength(6);
  await vi.waitFor(
    async () => {
      const found = await rows(ids);
      expect(found.filter((row) => row.status === "running")).toHaveLength(2);
    },
    { timeout: 15_000, interval: 50 },
  );
  // The four waiting ones are the worker's, in the database, not only in its memory.
  const queued = (await rows(ids)).filter((row) => row.status === "pending");
  expect(queued.map((row) => row.queued_by)).toEqual([nodeId, nodeId, nodeId, nodeId]);
  return { a, ids };
}

function doneCount(p: TestProcess, id: string): number {
  return p.lines.filter((line) => line.event === "done" && line.episodeId === id).length;
}

describe("a worker killed with a queue", () => {
  it("another worker adopts the queued episodes and recovers the running ones, each run once", async () => {
    const { a, ids } = await workerWithQueue("worker-a");
    const before = await rows(ids);
    const queuedIds = before.filter((row) => row.status === "pending").map((row) => row.id);
    await a.kill("SIGKILL");

    const b = worker({ NODE_ID: "worker-b", MAX_CONCURRENT: "2", ...RECOVERING });
    await b.waitFor((line) => line.event === "ready");
    await waitForStatus(ids, "completed");

    for (const row of await rows(ids)) {
      expect(doneCount(b, row.id)).toBe(1);
      if (queuedIds.includes(row.id)) {
        // Never started: adopted, same attempt.
        expect(row.attempt).toBe(1);
        expect(row.recovery_history).toEqual([
          expect.objectContaining({ node: "worker-b", outcome: "adopted", from: "worker-a" }),
        ]);
      } else {
        expect(row.attempt).toBe(2);
        expect(row.recovery_history).toEqual([
          expect.objectContaining({ node: "worker-b", policy: "restart", outcome: "restarted" }),
        ]);
      }
    }
    const runs = b.lines.filter((line) => line.event === "run");
    expect(Math.max(...runs.map((line) => line.active as number))).toBeLessThanOrEqual(2);
  });

  it("the same identity restarted takes its predecessor's queue back at once", async () => {
    const { a, ids } = await workerWithQueue("worker-static");
    await a.kill("SIGKILL");
    // Alone in the cluster: nobody else could adopt, so only its own reconcile can find them.
    const again = worker({ NODE_ID: "worker-static", MAX_CONCURRENT: "2", ...RECOVERING });
    await again.waitFor((line) => line.event === "ready");
    await waitForStatus(ids, "completed");
    for (const id of ids) expect(doneCount(again, id)).toBe(1);
  });
});

describe("a worker's queue beyond its memory bound", () => {
  it("keeps at most localQueueLimit in memory and still runs every episode once, oldest first", async () => {
    const a = worker({
      NODE_ID: "worker-bounded",
      MAX_CONCURRENT: "1",
      LOCAL_QUEUE_LIMIT: "3",
      FIRE: JSON.stringify([
        { actorId: "victim_restart", count: 25, input: { steps: 1, stepMs: 5 } },
      ]),
    });
    const ready = await a.waitFor((line) => line.event === "ready");
    const ids = ready.fired as string[];
    await waitForStatus(ids, "completed");
    const order = a.lines.filter((line) => line.event === "run").map((line) => line.episodeId);
    expect(order).toEqual(ids);
  });
});

describe("a per-actor override on the recovering node", () => {
  it("binds recovered work: the restarted and adopted episodes become trigger requests, not local runs", async () => {
    const { a, ids } = await workerWithQueue("worker-a2");
    await db.pool.query(
      `INSERT INTO cyclium_mode_overrides (target_node, actor_id, mode)
       VALUES ('worker-b2', 'victim_restart', 'trigger_only')`,
    );
    await a.kill("SIGKILL");
    const b = worker({ NODE_ID: "worker-b2", MAX_CONCURRENT: "2", ...RECOVERING });
    await b.waitFor((line) => line.event === "ready");
    await vi.waitFor(
      async () => {
        const { rows: requests } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM cyclium_trigger_requests
            WHERE episode_id = ANY($1::uuid[]) AND status = 'pending'`,
          [ids],
        );
        expect(requests[0]?.n).toBe(6);
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(b.lines.filter((line) => line.event === "run")).toEqual([]);
    const { rows: recovered } = await db.pool.query<{ opts: unknown }>(
      `SELECT r.opts FROM cyclium_trigger_requests r JOIN cyclium_episodes e ON e.id = r.episode_id
        WHERE e.id = ANY($1::uuid[]) AND e.attempt = 2`,
      [ids],
    );
    expect(recovered.map((row) => row.opts)).toEqual([{ recovered: true }, { recovered: true }]);

    // A full worker's poller runs them.
    const c = worker({ NODE_ID: "worker-c2", MAX_CONCURRENT: "6", POLLER: "on" });
    await c.waitFor((line) => line.event === "ready");
    await waitForStatus(ids, "completed");
    for (const id of ids) expect(doneCount(c, id)).toBe(1);
  });
});
