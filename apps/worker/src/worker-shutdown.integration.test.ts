import { silentLogger, Telemetry, DeferredRunner } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, WORKER_MAIN } from "./testing/spawn-worker";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe("worker process life cycle", () => {
  it("on SIGTERM during a long episode exits 0 within 30 s, leaving the episode running with its journal", async () => {
    const worker = spawnWorker({ identity: "worker-term", env: { DATABASE_URL: db.url } });
    await worker.ready;
    const deferred = new DeferredRunner({
      db: db.pool,
      nodeIdentity: "console",
      stack: null,
      env: null,
      logger: silentLogger,
      telemetry: new Telemetry(),
    });
    const created = await deferred.defer({
      actorId: "slow",
      expectationId: "run",
      triggerType: "manual",
      dedupeKey: null,
      // Never done on its own: 200 ms steps until the node stops it.
      input: { steps: 0, stepMs: 200 },
    });
    await deferred.flush();
    if (created.kind !== "created") throw new Error("not created");
    const id = created.episode.id;
    await vi.waitFor(
      async () => {
        const { rowCount } = await db.pool.query(
          "SELECT 1 FROM cyclium_episode_steps WHERE episode_id = $1",
          [id],
        );
        expect(rowCount).toBeGreaterThanOrEqual(3);
      },
      { timeout: 20_000, interval: 50 },
    );

    const signalledAt = Date.now();
    const exit = await worker.stop("SIGTERM");
    const tookMs = Date.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(30_000);

    const episode = await db.pool.query(
      "SELECT status, executed_by, finished_at FROM cyclium_episodes WHERE id = $1",
      [id],
    );
    expect(episode.rows).toEqual([
      { status: "running", executed_by: "worker-term", finished_at: null },
    ]);
    const steps = await db.pool.query<{ step_no: number; outcome: string; node: string }>(
      "SELECT step_no, outcome, node FROM cyclium_episode_steps WHERE episode_id = $1 ORDER BY step_no",
      [id],
    );
    expect(steps.rows.length).toBeGreaterThanOrEqual(3);
    steps.rows.forEach((row, index) =>
      expect(row).toEqual({ step_no: index + 1, outcome: "continue", node: "worker-term" }),
    );
    const node = await db.pool.query(
      "SELECT status FROM cyclium_nodes WHERE identity = 'worker-term'",
    );
    expect(node.rows).toEqual([{ status: "stopped" }]);
    expect(worker.output.some((line) => line.includes("node draining; episode left running"))).toBe(
      true,
    );
  }, 60_000);

  it("exits 2 naming the variable when the configuration is invalid", async () => {
    const cases: Record<string, string>[] = [
      { CYCLIUM_MODE: "sometimes" },
      { CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: "-5" },
      { CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "soon" },
    ];
    const results = await Promise.all(
      cases.map(async (env, index) => {
        const worker = spawnWorker({
          identity: `bad-${index}`,
          entry: WORKER_MAIN,
          env: { DATABASE_URL: db.url, ...env },
        });
        return { env, exit: await worker.exited, output: worker.output.join("\n") };
      }),
    );
    for (const { env, exit, output } of results) {
      const [name] = Object.keys(env);
      expect(exit.code).toBe(2);
      expect(output).toContain(`Invalid environment variable ${name}=`);
    }
  }, 60_000);
});
