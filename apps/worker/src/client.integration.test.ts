import { createClient, type CycliumClient } from "@cyclium/core/client";
import {
  CLIENT_DEPLOYMENT_PATH,
  CLIENT_TRIGGER,
  CLIENT_WORKFLOW,
  clientDeployment,
} from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, WORKER_MAIN, type WorkerProcess } from "./testing/spawn-worker";

// createClient from this process (no node, no LISTEN), a real worker process (apps/worker's
// main.ts) running the client fixture deployment: what the client fires, the worker runs.
let db: TestDatabase;
let worker: WorkerProcess | undefined;
let client: CycliumClient<typeof clientDeployment>;

beforeAll(async () => {
  db = await createTestDatabase();
  worker = spawnWorker({
    identity: "client-worker",
    entry: WORKER_MAIN,
    env: {
      DATABASE_URL: db.url,
      CYCLIUM_DEPLOYMENT: CLIENT_DEPLOYMENT_PATH,
      // The fallback poll: every wake-up the tests below wait for comes sooner (a NOTIFY, or the
      // timer for the earliest due request), so a late start is not hidden by the fallback.
      CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "5000",
    },
  });
  await worker.ready;
  client = createClient({ connectionString: db.url }, { deployment: clientDeployment, by: "test" });
  // No timeout of its own: vitest.config.ts's hookTimeout (120 s) covers a worker starting on a
  // loaded machine.
});

afterAll(async () => {
  await client?.close();
  await worker?.stop("SIGKILL");
  await db?.drop();
}, 20_000);

async function statusOf(episodeId: string): Promise<{ status: string; attempt: number }> {
  const { rows } = await db.pool.query<{ status: string; attempt: number }>(
    "SELECT status, attempt FROM cyclium_episodes WHERE id = $1",
    [episodeId],
  );
  return rows[0] ?? { status: "missing", attempt: 0 };
}

async function waitForStatus(episodeId: string, status: string): Promise<void> {
  await vi.waitFor(async () => expect((await statusOf(episodeId)).status).toBe(status), {
    timeout: 15_000,
    interval: 100,
  });
}

describe("createClient against a real worker", () => {
  it("fires an episode that the worker runs to completion, and dedupes a repeat", async () => {
    const fired = await client.fire({
      actorId: "client_steps",
      expectationId: "run",
      input: { steps: 2 },
      idempotencyKey: "order-1",
    });
    if (fired.kind !== "created") throw new Error(`expected created, got ${fired.kind}`);
    expect(fired.episode.status).toBe("pending");
    const again = await client.fire({
      actorId: "client_steps",
      expectationId: "run",
      input: { steps: 2 },
      idempotencyKey: "order-1",
    });
    expect(again.kind).toBe("deduped");
    await waitForStatus(fired.episodeId, "completed");
    const { rows } = await db.pool.query<{ executed_by: string; result: unknown }>(
      "SELECT executed_by, result FROM cyclium_episodes WHERE id = $1",
      [fired.episodeId],
    );
    expect(rows[0]).toEqual({ executed_by: "client-worker", result: { steps: 2 } });
  });

  it("waits for a fired episode's result, the same through a deduped fire, and reads it", async () => {
    const fired = await client.fire({
      actorId: "client_steps",
      expectationId: "run",
      input: { steps: 3 },
      idempotencyKey: "order-result",
    });
    const again = await client.fire({
      actorId: "client_steps",
      expectationId: "run",
      input: { steps: 3 },
      idempotencyKey: "order-result",
    });
    expect(again).toMatchObject({ kind: "deduped", episodeId: fired.episodeId });
    const [first, second] = await Promise.all([
      fired.result({ timeoutMs: 30_000 }),
      again.result({ timeoutMs: 30_000 }),
    ]);
    expect(first).toMatchObject({ kind: "completed", result: { steps: 3 } });
    expect(second).toMatchObject({ kind: "completed", episodeId: fired.episodeId });
    expect(await client.get(fired.episodeId ?? "")).toMatchObject({
      status: "completed",
      executedBy: "client-worker",
      result: { steps: 3 },
    });
    expect(await client.get("00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });

  it("gives a failure as a value, a timeout for an episode still pending, and polls without LISTEN", async () => {
    const polling = createClient(
      { connectionString: db.url },
      { deployment: clientDeployment, listen: false, resultPollMs: 100 },
    );
    try {
      const flaky = await polling.fire({ actorId: "client_steps", expectationId: "flaky" });
      expect(await flaky.result({ timeoutMs: 30_000 })).toMatchObject({
        kind: "failed",
        error: { class: "flaky", message: "the first attempt always fails" },
      });
      const parked = await polling.fire({ actorId: "client_parked", expectationId: "wait" });
      expect(await parked.result({ timeoutMs: 300 })).toEqual({
        kind: "timeout",
        episodeId: parked.episodeId,
        status: "pending",
      });
      // A wait in progress ends at cancel: the cancel's NOTIFY (or the next poll) wakes it.
      const waiting = client.result(parked.episodeId ?? "", { timeoutMs: 30_000 });
      await client.cancel(parked.episodeId ?? "");
      expect(await waiting).toMatchObject({ kind: "cancelled", episodeId: parked.episodeId });
      expect(await polling.result("00000000-0000-4000-8000-000000000000")).toEqual({
        kind: "not_found",
        episodeId: "00000000-0000-4000-8000-000000000000",
      });
    } finally {
      await polling.close();
    }
  });

  it("starts a run at a time no earlier, and within a second after; keeps its priority", async () => {
    // 3 s ahead by the database clock (SPEC section 16: no episode starts before its run_at).
    const { rows: clock } = await db.pool.query<{ at: Date }>(
      "SELECT now() + interval '3 seconds' AS at",
    );
    const runAt = clock[0]?.at ?? new Date();
    const fired = await client.fire({
      actorId: "client_steps",
      expectationId: "run",
      input: { steps: 1 },
      runAt,
      priority: 9,
    });
    expect((await client.get(fired.episodeId ?? ""))?.status).toBe("pending");
    // Until then its request waits, due at run_at, at its priority.
    const { rows: waiting } = await db.pool.query<{ due: boolean; priority: number }>(
      `SELECT run_at = $2 AS due, priority FROM cyclium_trigger_requests
        WHERE episode_id = $1 AND status = 'pending'`,
      [fired.episodeId, runAt],
    );
    expect(waiting).toEqual([{ due: true, priority: 9 }]);
    expect(await fired.result({ timeoutMs: 30_000 })).toMatchObject({ kind: "completed" });
    // Both instants from the database clock: the start's (its statement's now()) and run_at.
    // The worker's fallback poll is 5 s away: the poller's timer for the earliest due request
    // is what starts it on time. The start consumed the request.
    const { rows } = await db.pool.query<{ late_ms: number; requests: number }>(
      `SELECT (extract(epoch FROM e.started_at - $2::timestamptz) * 1000)::float8 AS late_ms,
              (SELECT count(*) FROM cyclium_trigger_requests r WHERE r.episode_id = e.id)::int
                AS requests
         FROM cyclium_episodes e WHERE e.id = $1`,
      [fired.episodeId, runAt],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.requests).toBe(0);
    expect(rows[0]?.late_ms).toBeGreaterThanOrEqual(0);
    expect(rows[0]?.late_ms).toBeLessThan(1_000);
    const untyped = client as unknown as CycliumClient;
    await expect(
      untyped.fire({
        actorId: "client_steps",
        expectationId: "run",
        input: { steps: 1 },
        priority: 11,
      }),
    ).rejects.toMatchObject({ code: "invalid_input", details: { field: "priority" } });
    await expect(
      untyped.fire({
        actorId: "client_steps",
        expectationId: "run",
        input: { steps: 1 },
        runAt: "soon",
      }),
    ).rejects.toMatchObject({ code: "invalid_input", details: { field: "runAt" } });
  });

  it("retries a failing attempt after its backoff until it completes, keeping each error", async () => {
    const fired = await client.fire({ actorId: "client_steps", expectationId: "retried" });
    // One wait for the episode's end: the failed attempts end nothing.
    expect(await fired.result({ timeoutMs: 30_000 })).toMatchObject({
      kind: "completed",
      result: { attempt: 3 },
    });
    const attempts = await db.pool.query<{ attempt: number; error_class: string }>(
      "SELECT attempt, error_class FROM cyclium_episode_attempts WHERE episode_id = $1 ORDER BY attempt",
      [fired.episodeId],
    );
    expect(attempts.rows).toEqual([
      { attempt: 1, error_class: "transient" },
      { attempt: 2, error_class: "transient" },
    ]);
    // Each retry started after its backoff (initialMs 200, doubling, half to all): from a failed
    // attempt's record (the end statement's now()) to the next attempt's end (attempt 2, which
    // fails at once) or start (attempt 3, the episode's started_at), database clock throughout.
    // The upper bounds leave a second for the poll.
    const { rows } = await db.pool.query<{ second_ms: number; third_ms: number }>(
      `SELECT round(extract(epoch FROM a2.inserted_at - a1.inserted_at) * 1000)::int AS second_ms,
              round(extract(epoch FROM e.started_at - a2.inserted_at) * 1000)::int AS third_ms
         FROM cyclium_episodes e
         JOIN cyclium_episode_attempts a1 ON a1.episode_id = e.id AND a1.attempt = 1
         JOIN cyclium_episode_attempts a2 ON a2.episode_id = e.id AND a2.attempt = 2
        WHERE e.id = $1`,
      [fired.episodeId],
    );
    const [{ second_ms: second, third_ms: third } = { second_ms: -1, third_ms: -1 }] = rows;
    expect(second).toBeGreaterThanOrEqual(100);
    expect(second).toBeLessThan(1_200);
    expect(third).toBeGreaterThanOrEqual(200);
    expect(third).toBeLessThan(1_400);
  });

  it("fails at maxAttempts, and at once for fail(..., { retry: false })", async () => {
    const untyped = client as unknown as CycliumClient;
    const exhausted = await untyped.fire({ actorId: "client_steps", expectationId: "doomed" });
    expect(await exhausted.result({ timeoutMs: 30_000 })).toMatchObject({
      kind: "failed",
      error: { class: "transient" },
      episode: { attempt: 2 },
    });
    const final = await untyped.fire({
      actorId: "client_steps",
      expectationId: "doomed",
      input: { final: true },
    });
    expect(await final.result({ timeoutMs: 30_000 })).toMatchObject({
      kind: "failed",
      error: { class: "refused" },
      episode: { attempt: 1 },
    });
  });

  it("fires a trigger for later: only its workflow's first step waits, at its priority", async () => {
    const fired = await client.fireTrigger({
      name: CLIENT_TRIGGER,
      context: { run: 2 },
      delayMs: 2_000,
      priority: 6,
    });
    if (fired.kind !== "fired") throw new Error(`expected fired, got ${JSON.stringify(fired)}`);
    const instanceId = fired.executions[0]?.instance_id;
    // The first step waits on the deferred queue, due after the delay, at the priority.
    const { rows: waiting } = await db.pool.query<{ step: string; wait_ms: number }>(
      `SELECT e.workflow_step AS step,
              round(extract(epoch FROM r.run_at - r.inserted_at) * 1000)::int AS wait_ms,
              r.priority
         FROM cyclium_episodes e JOIN cyclium_trigger_requests r ON r.episode_id = e.id
        WHERE e.workflow_instance_id = $1 AND r.status = 'pending'`,
      [instanceId],
    );
    expect(waiting).toEqual([{ step: "first", wait_ms: 2_000, priority: 6 }]);
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          "SELECT status FROM cyclium_workflow_instances WHERE id = $1",
          [instanceId],
        );
        expect(rows[0]?.status).toBe("done");
      },
      { timeout: 20_000, interval: 200 },
    );
    // The first step started no earlier than its delay; the worker's engine started the second
    // as any workflow step, on its own queue, without waiting the trigger's delay again.
    const { rows } = await db.pool.query<{ step: string; after_ms: number }>(
      `SELECT e.workflow_step AS step,
              round(extract(epoch FROM e.started_at - coalesce(
                (SELECT p.finished_at FROM cyclium_episodes p
                  WHERE p.workflow_instance_id = e.workflow_instance_id
                    AND p.inserted_at < e.inserted_at ORDER BY p.inserted_at DESC LIMIT 1),
                e.inserted_at)) * 1000)::int AS after_ms
         FROM cyclium_episodes e
        WHERE e.workflow_instance_id = $1 ORDER BY e.inserted_at`,
      [instanceId],
    );
    expect(rows.map((row) => row.step)).toEqual(["first", "second"]);
    expect(rows[0]?.after_ms).toBeGreaterThanOrEqual(2_000);
    expect(rows[1]?.after_ms).toBeLessThan(2_000);
  });

  it("refuses input the expectation's schema rejects, naming the field", async () => {
    const untyped = client as unknown as CycliumClient;
    await expect(
      untyped.fire({ actorId: "client_steps", expectationId: "run", input: { steps: "x" } }),
    ).rejects.toMatchObject({ code: "invalid_input", details: { field: "input.steps" } });
    await expect(untyped.fire({ actorId: "nobody", expectationId: "run" })).rejects.toMatchObject({
      code: "invalid_input",
      details: { field: "actorId" },
    });
  });

  it("cancels a pending episode, and says not_found and conflict as values", async () => {
    const fired = await client.fire({ actorId: "client_parked", expectationId: "wait" });
    if (fired.kind !== "created") throw new Error(`expected created, got ${fired.kind}`);
    const cancelled = await client.cancel(fired.episodeId);
    expect(cancelled.kind).toBe("cancelled");
    expect(await statusOf(fired.episodeId)).toMatchObject({ status: "cancelled" });
    expect((await client.cancel(fired.episodeId)).kind).toBe("conflict");
    expect((await client.cancel("00000000-0000-4000-8000-000000000000")).kind).toBe("not_found");
    const { rows } = await db.pool.query<{ status: string }>(
      "SELECT status FROM cyclium_trigger_requests WHERE episode_id = $1",
      [fired.episodeId],
    );
    expect(rows).toEqual([{ status: "completed" }]);
    expect((await client.archive(fired.episodeId)).kind).toBe("archived");
  });

  it("retries a failed episode, which the worker then completes as attempt 2", async () => {
    const fired = await client.fire({ actorId: "client_steps", expectationId: "flaky" });
    if (fired.kind !== "created") throw new Error(`expected created, got ${fired.kind}`);
    await waitForStatus(fired.episodeId, "failed");
    const retried = await client.retry(fired.episodeId);
    expect(retried.kind).toBe("retried");
    await waitForStatus(fired.episodeId, "completed");
    expect(await statusOf(fired.episodeId)).toEqual({ status: "completed", attempt: 2 });
  });

  it("pauses, fires while paused, resumes and fires a trigger whose workflow the worker completes", async () => {
    expect((await client.pauseTrigger({ name: CLIENT_TRIGGER })).kind).toBe("paused");
    // Pause stops the schedulers, not an operator: a fire of a paused trigger runs.
    const whilePaused = await client.fireTrigger({ name: CLIENT_TRIGGER, context: { run: 0 } });
    expect(whilePaused.kind).toBe("fired");
    expect((await client.resumeTrigger({ name: CLIENT_TRIGGER })).kind).toBe("resumed");
    expect((await client.pauseTrigger({ name: "no_such_trigger" })).kind).toBe("not_found");
    const fired = await client.fireTrigger({ name: CLIENT_TRIGGER, context: { run: 1 } });
    if (fired.kind !== "fired") throw new Error(`expected fired, got ${JSON.stringify(fired)}`);
    const instanceId = fired.executions[0]?.instance_id;
    expect(fired.executions).toMatchObject([{ workflow: CLIENT_WORKFLOW, primary: true }]);
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          "SELECT status FROM cyclium_workflow_instances WHERE id = $1",
          [instanceId],
        );
        expect(rows[0]?.status).toBe("done");
      },
      { timeout: 20_000, interval: 200 },
    );
  });
});
