import { silentLogger, Telemetry, DeferredRunner } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, type WorkerProcess } from "./testing/spawn-worker";

let db: TestDatabase;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
// A case that failed half-way must not leave its workers taking the next case's episodes.
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop("SIGKILL")));
});
afterAll(async () => {
  await db.drop();
});

// Long enough that the stopped worker is still mid-episode when its SIGTERM lands on a loaded
// machine: at 10 steps a clean-clone run under load saw all three finish before the signal.
const STEPS = 20;

function start(identity: string, graceMs = 3000): WorkerProcess {
  const worker = spawnWorker({
    identity,
    env: {
      DATABASE_URL: db.url,
      // Short, as a deploy's would be with steps this short; recovery's first sweep (120 s after
      // boot) is far beyond the test, so only a hand-back can move the episodes.
      CYCLIUM_SHUTDOWN_GRACE_MS: String(graceMs),
    },
  });
  workers.push(worker);
  return worker;
}

async function fireResumable(
  count: number,
  input: { steps: number; stepMs: number } = { steps: STEPS, stepMs: 300 },
  actorId = "resumable",
): Promise<string[]> {
  const deferred = new DeferredRunner({
    db: db.pool,
    nodeIdentity: "console",
    stack: null,
    env: null,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await deferred.defer({
      actorId,
      expectationId: "run",
      triggerType: "manual",
      dedupeKey: null,
      input,
    });
    if (created.kind !== "created") throw new Error("not created");
    ids.push(created.episode.id);
  }
  await deferred.flush();
  return ids;
}

/**
 * Keeps `identity` from running `actorId` (a mode override, as an operator sets one) until
 * released: the second worker boots beside the first before the episodes are fired, so the
 * SIGTERM is not held up by a boot that, on a loaded machine, outlasted the episodes themselves.
 */
async function holdBack(identity: string, actorId: string): Promise<void> {
  await db.pool.query(
    `INSERT INTO cyclium_mode_overrides (target_node, actor_id, mode, set_by)
     VALUES ($1, $2, 'trigger_only', 'test')`,
    [identity, actorId],
  );
}

async function release(identity: string, actorId: string): Promise<void> {
  await db.pool.query(
    "DELETE FROM cyclium_mode_overrides WHERE target_node = $1 AND actor_id = $2",
    [identity, actorId],
  );
  await db.pool.query("SELECT pg_notify('cyclium_modes', $1)", [identity]);
}

async function journal(id: string): Promise<{ step_no: number; node: string }[]> {
  const { rows } = await db.pool.query<{ step_no: number; node: string }>(
    "SELECT step_no, node FROM cyclium_episode_steps WHERE episode_id = $1 ORDER BY step_no, attempt",
    [id],
  );
  return rows;
}

describe("a deploy: SIGTERM to a worker in the middle of long episodes", () => {
  it("hands them back so another worker resumes each from its checkpoint, every step once", async () => {
    await holdBack("deploy-b", "resumable");
    const a = start("deploy-a");
    const b = start("deploy-b");
    await Promise.all([a.ready, b.ready]);
    const ids = await fireResumable(3);
    // Each is a few steps in on the worker about to be stopped.
    await vi.waitFor(
      async () => {
        for (const id of ids) expect((await journal(id)).length).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 50 },
    );
    await release("deploy-b", "resumable");

    const signalledAt = Date.now();
    expect(await a.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const exitedAfterMs = Date.now() - signalledAt;
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          "SELECT status FROM cyclium_episodes WHERE id = ANY($1::uuid[])",
          [ids],
        );
        expect(rows.map((row) => row.status)).toEqual(["completed", "completed", "completed"]);
      },
      { timeout: 15_000, interval: 50 },
    );
    const completedAfterMs = Date.now() - signalledAt;
    // The figure the issue measured at 3 min 23 s; reported, not asserted (no timing assertions).
    console.info(
      `deploy hand-back: worker exited ${(exitedAfterMs / 1000).toFixed(1)} s and all three ` +
        `episodes completed on the other worker ${(completedAfterMs / 1000).toFixed(1)} s after SIGTERM`,
    );

    const episodes = await db.pool.query<{ recovery_history: unknown[] }>(
      `SELECT status, executed_by, attempt, recovery_history
         FROM cyclium_episodes WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of episodes.rows) {
      expect(row).toMatchObject({ status: "completed", executed_by: "deploy-b", attempt: 2 });
      expect(row.recovery_history).toContainEqual(
        expect.objectContaining({ node: "deploy-a", outcome: "handed_back" }),
      );
    }
    for (const id of ids) {
      // Every step ran exactly once across the two workers: deploy-a's, then deploy-b's.
      const steps = await journal(id);
      expect(steps.map((step) => step.step_no)).toEqual(
        Array.from({ length: STEPS }, (_, i) => i + 1),
      );
      const handedAt = steps.findIndex((step) => step.node === "deploy-b");
      expect(handedAt).toBeGreaterThanOrEqual(2);
      expect(steps.slice(0, handedAt).every((step) => step.node === "deploy-a")).toBe(true);
      expect(steps.slice(handedAt).every((step) => step.node === "deploy-b")).toBe(true);
      // Each step's side effect, written through the exactly-once outputs, once per step.
      const outputs = await db.pool.query<{ step: number }>(
        `SELECT (value->>'step')::int AS step FROM cyclium_episode_outputs
          WHERE episode_id = $1 ORDER BY step`,
        [id],
      );
      expect(outputs.rows.map((row) => row.step)).toEqual(
        Array.from({ length: STEPS }, (_, i) => i + 1),
      );
    }
    // Each run's request was consumed by its start: the first's, and the one the hand-back wrote.
    const requests = await db.pool.query(
      `SELECT status, count(*)::int AS n FROM cyclium_trigger_requests
        WHERE episode_id = ANY($1::uuid[]) GROUP BY status`,
      [ids],
    );
    expect(requests.rows).toEqual([]);
    const nodes = await db.pool.query(
      "SELECT identity, status FROM cyclium_nodes ORDER BY identity",
    );
    expect(nodes.rows).toEqual([
      { identity: "deploy-a", status: "stopped" },
      { identity: "deploy-b", status: "running" },
    ]);
    expect(a.output.some((line) => line.includes("handed back to pending"))).toBe(true);
    await b.stop("SIGTERM");
  }, 90_000);

  it("hands back an episode whose step outlasts the grace period; its aborted step runs again once", async () => {
    await holdBack("grace-b", "resumable");
    const a = start("grace-a", 500);
    const b = start("grace-b");
    await Promise.all([a.ready, b.ready]);
    const [id] = await fireResumable(1, { steps: 3, stepMs: 2_000 });
    if (id === undefined) throw new Error("not fired");
    await vi.waitFor(async () => expect((await journal(id)).length).toBe(1), {
      timeout: 20_000,
      interval: 50,
    });
    await release("grace-b", "resumable");
    const signalledAt = Date.now();
    expect(await a.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query(
          "SELECT status, executed_by FROM cyclium_episodes WHERE id = $1",
          [id],
        );
        expect(rows).toEqual([{ status: "completed", executed_by: "grace-b" }]);
      },
      { timeout: 15_000, interval: 50 },
    );
    console.info(
      `grace hand-back: completed on the other worker ${((Date.now() - signalledAt) / 1000).toFixed(1)} s after SIGTERM`,
    );
    const steps = await journal(id);
    expect(steps).toEqual([
      { step_no: 1, node: "grace-a" },
      { step_no: 2, node: "grace-b" },
      { step_no: 3, node: "grace-b" },
    ]);
    const outputs = await db.pool.query(
      "SELECT count(*)::int AS n FROM cyclium_episode_outputs WHERE episode_id = $1",
      [id],
    );
    expect(outputs.rows).toEqual([{ n: 3 }]);
    expect(a.output.some((line) => line.includes("grace period over"))).toBe(true);
    await b.stop("SIGTERM");
  }, 90_000);

  it("hands back a fail-policy episode whose checkpoint covers every finished step", async () => {
    await holdBack("fail-b", "resumable_fail");
    const a = start("fail-a");
    const b = start("fail-b");
    await Promise.all([a.ready, b.ready]);
    const [id] = await fireResumable(1, { steps: 12, stepMs: 300 }, "resumable_fail");
    if (id === undefined) throw new Error("not fired");
    await vi.waitFor(async () => expect((await journal(id)).length).toBeGreaterThanOrEqual(2), {
      timeout: 20_000,
      interval: 50,
    });
    await release("fail-b", "resumable_fail");
    expect(await a.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query(
          "SELECT status, executed_by FROM cyclium_episodes WHERE id = $1",
          [id],
        );
        expect(rows).toEqual([{ status: "completed", executed_by: "fail-b" }]);
      },
      { timeout: 15_000, interval: 50 },
    );
    // Resumed after the last checkpointed step: no step ran twice.
    expect((await journal(id)).map((step) => step.step_no)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    await b.stop("SIGTERM");
  }, 90_000);
});
