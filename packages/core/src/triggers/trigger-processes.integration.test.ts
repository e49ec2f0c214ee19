import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "../recovery/testing/index";

const NODE = fileURLToPath(new URL("./testing/trigger-node-process.ts", import.meta.url));

let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await db.drop();
});

interface Firing {
  id: string;
  scheduled_time: Date;
  status: string;
  outcomes: { workflow: string; primary: boolean; status: string }[];
}

describe("three worker processes running the same cron trigger", () => {
  it("fire each window once, fan out to both workflows, and close each firing when its primary is done", async () => {
    for (let i = 0; i < 3; i++) {
      processes.push(spawnTestProcess(NODE, { DATABASE_URL: db.url, NODE_ID: `node-${i}` }));
    }
    await Promise.all(processes.map((p) => p.waitFor((line) => line.event === "ready")));
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM cyclium_trigger_firings WHERE status = 'completed'",
        );
        expect(rows[0]?.n).toBeGreaterThanOrEqual(3);
      },
      { timeout: 30_000, interval: 100 },
    );
    await Promise.all(processes.map((p) => p.kill("SIGTERM")));

    const { rows: firings } = await db.pool.query<Firing>(
      "SELECT id, scheduled_time, status, outcomes FROM cyclium_trigger_firings",
    );
    const windows = firings.map((firing) => firing.scheduled_time.toISOString());
    expect(new Set(windows).size).toBe(firings.length);
    for (const firing of firings.filter((f) => f.status === "completed")) {
      expect(
        firing.outcomes.map(({ workflow, primary, status }) => ({ workflow, primary, status })),
      ).toEqual([
        { workflow: "tick_flow", primary: true, status: "started" },
        { workflow: "audit_flow", primary: false, status: "started" },
      ]);
      const { rows: instances } = await db.pool.query<{
        workflow_name: string;
        status: string;
        episodes: number;
      }>(
        `SELECT w.workflow_name, w.status,
                (SELECT count(*)::int FROM cyclium_episodes e WHERE e.workflow_instance_id = w.id) AS episodes
           FROM cyclium_workflow_instances w WHERE w.firing_id = $1 ORDER BY w.workflow_name`,
        [firing.id],
      );
      expect(instances.map((i) => i.workflow_name)).toEqual(["audit_flow", "tick_flow"]);
      const primary = instances.find((i) => i.workflow_name === "tick_flow");
      expect(primary).toMatchObject({ status: "done", episodes: 1 });
      expect(instances.every((i) => i.episodes === 1)).toBe(true);
    }
  });
});
