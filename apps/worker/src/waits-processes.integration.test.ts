import { createClient, type CycliumClient } from "@cyclium/core/client";
import { defineDeployment } from "@cyclium/core";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, type WorkerProcess } from "./testing/spawn-worker";
import { testActors, testStrategies } from "./testing/test-actors";

// Durable waits (SPEC section 17, issue 32) across three real worker processes: sleeping
// episodes hold no slot and resume exactly once with their state, signals are kept, deduped and
// time out, and a worker killed while episodes wait loses none of them.
const SLEEPERS = 1_000;
const SLOTS_PER_NODE = 4;
const IDENTITIES = ["waits-1", "waits-2", "waits-3"];

let db: TestDatabase;
let workers: WorkerProcess[] = [];
const deployment = defineDeployment({ actors: testActors, strategies: testStrategies });
let client: CycliumClient<typeof deployment>;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 10 });
  workers = IDENTITIES.map((identity) =>
    spawnWorker({
      identity,
      // A long poll interval: a wake-up can only come from the due timer or a NOTIFY.
      env: { DATABASE_URL: db.url, CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "30000" },
    }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  client = createClient({ connectionString: db.url }, { deployment, by: "waits-test" });
});

afterAll(async () => {
  await client?.close();
  await Promise.all(workers.map((worker) => worker.stop("SIGKILL")));
  await db?.drop();
}, 30_000);

async function fireSleepers(count: number, sleepMs: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, (_, i) =>
        client.fire({ actorId: "sleeper", expectationId: "run", input: { n: start + i, sleepMs } }),
      ),
    );
    for (const fired of batch) {
      if (fired.kind !== "created") throw new Error(`expected created, got ${fired.kind}`);
      ids.push(fired.episodeId);
    }
  }
  return ids;
}

async function countByStatus(ids: string[]): Promise<Record<string, number>> {
  const { rows } = await db.pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM cyclium_episodes WHERE id = ANY($1::uuid[])
      GROUP BY status`,
    [ids],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

async function fireApprover(input: object, delayMs?: number): Promise<string> {
  const fired = await client.fire({
    actorId: "approver",
    expectationId: "run",
    input,
    ...(delayMs === undefined ? {} : { delayMs }),
  });
  if (fired.kind !== "created") throw new Error(`expected created, got ${fired.kind}`);
  return fired.episodeId;
}

async function waitForStatus(id: string, status: string, timeout = 15_000): Promise<void> {
  await vi.waitFor(async () => expect((await client.get(id))?.status).toBe(status), {
    timeout,
    interval: 100,
  });
}

describe("durable waits on three worker processes", () => {
  it(`resumes ${SLEEPERS} episodes sleeping 2 s exactly once each, holding no slot`, async () => {
    const startedAt = Date.now();
    const ids = await fireSleepers(SLEEPERS, 2_000);
    let maxRunning = 0;
    let maxWaiting = 0;
    await vi.waitFor(
      async () => {
        const counts = await countByStatus(ids);
        maxRunning = Math.max(maxRunning, counts.running ?? 0);
        maxWaiting = Math.max(maxWaiting, counts.waiting ?? 0);
        expect(counts.completed ?? 0).toBe(SLEEPERS);
      },
      { timeout: 90_000, interval: 100 },
    );
    const elapsedMs = Date.now() - startedAt;
    // Held slots would cap the sleepers at 12 at a time (1,000 x 2 s / 12 = 167 s in all).
    // `running` also counts episodes started ahead of a free slot (at most one more per slot).
    expect(maxRunning).toBeLessThanOrEqual(2 * SLOTS_PER_NODE * IDENTITIES.length);
    expect(elapsedMs).toBeLessThan(60_000);
    expect(maxWaiting).toBeGreaterThan(SLOTS_PER_NODE * IDENTITIES.length);
    const { rows } = await db.pool.query<{
      id: string;
      attempt: number;
      result: { n: number; slept: boolean; wakeup: string };
      waits: number;
      resumes: number;
      executors: string[];
    }>(
      `SELECT e.id, e.attempt, e.result,
              (SELECT count(*)::int FROM cyclium_episode_steps s
                WHERE s.episode_id = e.id AND s.outcome = 'wait') AS waits,
              (SELECT count(*)::int FROM cyclium_episode_steps s
                WHERE s.episode_id = e.id AND s.step_no = 2) AS resumes,
              (SELECT array_agg(DISTINCT s.node) FROM cyclium_episode_steps s
                WHERE s.episode_id = e.id) AS executors
         FROM cyclium_episodes e WHERE e.id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(ids.map((id, n) => [id, n]));
    for (const row of rows) {
      expect(row).toMatchObject({ attempt: 1, waits: 1, resumes: 1 });
      expect(row.result).toEqual({ n: byId.get(row.id), slept: true, wakeup: "slept" });
    }
    expect(rows).toHaveLength(SLEEPERS);
    const nodes = new Set(rows.flatMap((row) => row.executors));
    expect(nodes.size).toBe(IDENTITIES.length);
    // No claim is left held and no request pending: every wake-up request was consumed once.
    const leftovers = await db.pool.query<{ requests: number; claims: number }>(
      `SELECT (SELECT count(*)::int FROM cyclium_trigger_requests
                WHERE episode_id = ANY($1::uuid[]) AND status <> 'completed') AS requests,
              (SELECT count(*)::int FROM cyclium_work_claims WHERE state = 'claimed') AS claims`,
      [ids],
    );
    expect(leftovers.rows[0]).toEqual({ requests: 0, claims: 0 });
    console.info(
      `waits: ${SLEEPERS} sleepers of 2 s done in ${elapsedMs} ms; ` +
        `peak running ${maxRunning}, peak waiting ${maxWaiting}`,
    );
  }, 120_000);

  it("keeps a signal sent before the wait and consumes it once", async () => {
    const id = await fireApprover({ timeoutMs: 60_000 }, 1_500);
    const sent = await client.signal(id, "approval", { approved: true, comment: "early" });
    expect(sent).toMatchObject({ kind: "delivered", woke: false });
    const result = await client.result(id, { timeoutMs: 20_000 });
    expect(result.kind).toBe("completed");
    if (result.kind !== "completed") return;
    expect(result.result).toMatchObject({
      wakeup: {
        kind: "signal",
        signal: "approval",
        payload: { approved: true, comment: "early" },
        sentBy: "waits-test",
      },
    });
    const { rows } = await db.pool.query<{ consumed: number }>(
      `SELECT count(*)::int AS consumed FROM cyclium_signals
        WHERE episode_id = $1 AND consumed_at IS NOT NULL`,
      [id],
    );
    expect(rows[0]?.consumed).toBe(1);
  }, 30_000);

  it("delivers a signal sent twice with one key once, and wakes the wait at once", async () => {
    const id = await fireApprover({ timeoutMs: 60_000 });
    await waitForStatus(id, "waiting");
    const payload = { approved: false, comment: "not this quarter" };
    const first = await client.signal(id, "approval", payload, { idempotencyKey: "k-1" });
    const second = await client.signal(id, "approval", payload, { idempotencyKey: "k-1" });
    expect(first).toMatchObject({ kind: "delivered", woke: true });
    expect(second).toEqual({
      kind: "duplicate",
      signalId: first.kind === "delivered" ? first.signalId : "",
    });
    const started = Date.now();
    const result = await client.result(id, { timeoutMs: 10_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({
      kind: "completed",
      result: { wakeup: { kind: "signal", payload } },
    });
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_signals WHERE episode_id = $1`,
      [id],
    );
    expect(rows[0]?.n).toBe(1);
    // The episode has ended: no wait will consume another.
    const late = await client.signal(id, "approval", payload, { idempotencyKey: "k-2" });
    expect(late).toEqual({ kind: "ended", status: "completed" });
  }, 30_000);

  it("resumes with a timeout marker when no signal comes, and refuses bad payloads", async () => {
    const id = await fireApprover({ timeoutMs: 1_000 });
    await waitForStatus(id, "waiting");
    const bad = await client.signal(id, "approval", { approved: "yes" });
    expect(bad.kind).toBe("invalid");
    if (bad.kind === "invalid") {
      expect(bad.issues.map((issue) => issue.path).sort()).toEqual(["approved", "comment"]);
    }
    expect(await client.signal(id, "nope", {})).toEqual({
      kind: "unknown_signal",
      declared: ["approval"],
    });
    const result = await client.result(id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({
      kind: "completed",
      result: { wakeup: { kind: "timeout", signal: "approval" } },
    });
    const after = await client.signal(id, "approval", { approved: true, comment: "too late" });
    expect(after).toEqual({ kind: "ended", status: "completed" });
  }, 30_000);

  it("loses no waiting episode when a worker is killed while they wait", async () => {
    const ids = await fireSleepers(60, 3_000);
    await vi.waitFor(async () => expect((await countByStatus(ids)).waiting).toBe(60), {
      timeout: 20_000,
      interval: 100,
    });
    const victim = workers[2];
    if (victim === undefined) throw new Error("no third worker");
    await victim.stop("SIGKILL");
    await vi.waitFor(async () => expect((await countByStatus(ids)).completed).toBe(60), {
      timeout: 30_000,
      interval: 200,
    });
    const { rows } = await db.pool.query<{ resumes: number; node: string }>(
      `SELECT count(*)::int AS resumes, min(node) AS node FROM cyclium_episode_steps
        WHERE episode_id = ANY($1::uuid[]) AND step_no = 2 GROUP BY episode_id`,
      [ids],
    );
    expect(rows).toHaveLength(60);
    for (const row of rows) {
      expect(row.resumes).toBe(1);
      expect(row.node).not.toBe("waits-3");
    }
  }, 60_000);
});
