import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "../../recovery/testing/index";
import { listCheckpoints } from "./index";

// SPEC 12 acceptance: real worker processes, a real SIGKILL after step 4 of a strategy that
// checkpointed at step 3; the restart resumes with step 4 on another worker.
const WORKER = fileURLToPath(
  new URL("../../recovery/testing/recovery-worker-process.ts", import.meta.url),
);

let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
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

async function journal(episodeId: string): Promise<{ attempt: number; step_no: number }[]> {
  const { rows } = await db.pool.query<{ attempt: number; step_no: number }>(
    `SELECT attempt, step_no FROM cyclium_episode_steps WHERE episode_id = $1
      ORDER BY attempt, step_no`,
    [episodeId],
  );
  return rows;
}

describe("a checkpointed episode killed after step 4", () => {
  it("resumes at step 4 on another worker and completes exactly once", async () => {
    const a = worker({
      NODE_ID: "worker-a",
      FIRE: JSON.stringify([{ actorId: "victim_checkpointed", count: 1, input: { stepMs: 250 } }]),
    });
    const ready = await a.waitFor((line) => line.event === "ready");
    const [id] = ready.fired as string[];
    if (id === undefined) throw new Error("nothing fired");
    await vi.waitFor(async () => expect((await journal(id)).length).toBeGreaterThanOrEqual(4), {
      timeout: 20_000,
      interval: 20,
    });
    await a.kill("SIGKILL");
    expect(await journal(id)).toEqual([1, 2, 3, 4].map((step_no) => ({ attempt: 1, step_no })));
    expect((await listCheckpoints({ episodeId: id }, db.pool)).map((c) => c.number)).toEqual([3]);

    const b = worker({
      NODE_ID: "worker-b",
      RECOVERY: "on",
      RECOVERY_DELAY_MS: "0",
      RECOVERY_INTERVAL_MS: "200",
      STALE_AFTER_MS: "300",
    });
    await b.waitFor((line) => line.event === "ready");
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          `SELECT status FROM cyclium_episodes WHERE id = $1`,
          [id],
        );
        expect(rows[0]?.status).toBe("completed");
      },
      { timeout: 40_000, interval: 50 },
    );

    const { rows } = await db.pool.query<{
      status: string;
      attempt: number;
      result: unknown;
      recovery_history: Record<string, unknown>[];
    }>(`SELECT status, attempt, result, recovery_history FROM cyclium_episodes WHERE id = $1`, [
      id,
    ]);
    expect(rows[0]).toMatchObject({ status: "completed", attempt: 2, result: { steps: 6 } });
    // The journal shows the resume: the new run (journaled under B's claim attempt, which the
    // sweep's own acquire also counted) starts with step 4; init was not run again.
    const steps = await journal(id);
    const resumed = steps.filter((step) => step.attempt > 1);
    expect(resumed.map((step) => step.step_no)).toEqual([4, 5, 6]);
    expect(new Set(resumed.map((step) => step.attempt)).size).toBe(1);
    expect(b.lines.filter((l) => l.event === "init" && l.episodeId === id)).toEqual([]);
    expect(
      b.lines.filter((l) => l.event === "step" && l.episodeId === id).map((l) => l.stepNo),
    ).toEqual([4, 5, 6]);
    expect(rows[0]?.recovery_history).toEqual([
      expect.objectContaining({ node: "worker-b", policy: "restart", outcome: "restarted" }),
      expect.objectContaining({
        node: "worker-b",
        outcome: "resumed_from_checkpoint",
        checkpoint: 3,
        phase: "after_step_3",
      }),
    ]);
    // Exactly once: one done line in all, and a completed episode keeps no checkpoints.
    expect([...a.lines, ...b.lines].filter((l) => l.event === "done")).toHaveLength(1);
    await vi.waitFor(async () =>
      expect(await listCheckpoints({ episodeId: id }, db.pool)).toEqual([]),
    );
    await b.kill("SIGTERM");
  });
});
