import {
  PIPELINE_DEPLOYMENT_PATH,
  PIPELINE_TRIGGER,
  PIPELINE_WORKFLOW,
} from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, WORKER_MAIN, type WorkerProcess } from "./testing/spawn-worker";

// Two real worker processes (apps/worker's main.ts) and no console, running a deployment loaded
// by path: its cron trigger (every 2 s) fires once per window across both, and the two-step
// workflow it starts completes, advanced by the workers' own workflow engines.
let db: TestDatabase;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  workers = ["deploy-1", "deploy-2"].map((identity) =>
    spawnWorker({
      identity,
      entry: WORKER_MAIN,
      env: {
        DATABASE_URL: db.url,
        CYCLIUM_DEPLOYMENT: PIPELINE_DEPLOYMENT_PATH,
        CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "500",
      },
    }),
  );
  await Promise.all(workers.map((worker) => worker.ready));
  // No timeout of its own: vitest.config.ts's hookTimeout (120 s) covers two workers starting on
  // a loaded machine (30 s did not, at load 24 with two test files at once).
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop("SIGKILL")));
  await db?.drop();
}, 20_000);

describe("a deployment on workers alone", () => {
  it("fires each cron window once across both workers and completes its workflows", async () => {
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM cyclium_workflow_instances
            WHERE workflow_name = $1 AND status = 'done'`,
          [PIPELINE_WORKFLOW],
        );
        expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 250 },
    );
    const firings = await db.pool.query<{ scheduled_time: Date; n: string; nodes: string[] }>(
      `SELECT scheduled_time, count(*) AS n, array_agg(fired_by) AS nodes
         FROM cyclium_trigger_firings WHERE trigger_name = $1
        GROUP BY scheduled_time ORDER BY scheduled_time`,
      [PIPELINE_TRIGGER],
    );
    expect(firings.rows.length).toBeGreaterThanOrEqual(2);
    for (const firing of firings.rows) {
      expect(firing.scheduled_time).not.toBeNull();
      expect(Number(firing.n)).toBe(1);
      expect(["deploy-1", "deploy-2"]).toContain(firing.nodes[0]);
    }
    // One instance per firing, never two for the same window.
    const instances = await db.pool.query<{ firing_id: string; n: string }>(
      `SELECT firing_id, count(*) AS n FROM cyclium_workflow_instances
        WHERE workflow_name = $1 GROUP BY firing_id HAVING count(*) > 1`,
      [PIPELINE_WORKFLOW],
    );
    expect(instances.rows).toEqual([]);
    // A finished instance ran each of its two steps exactly once, on a worker.
    const steps = await db.pool.query<{ workflow_step: string; status: string; n: string }>(
      `SELECT e.workflow_step, e.status, count(*) AS n
         FROM cyclium_episodes e JOIN cyclium_workflow_instances w ON w.id = e.workflow_instance_id
        WHERE w.status = 'done' GROUP BY e.workflow_instance_id, e.workflow_step, e.status`,
    );
    expect(steps.rows.length).toBeGreaterThanOrEqual(4);
    for (const step of steps.rows) {
      expect(step).toMatchObject({ status: "completed", n: "1" });
    }
    for (const worker of workers) {
      expect(worker.output.join("\n")).not.toContain("workflow not registered");
    }
  }, 30_000);
});
