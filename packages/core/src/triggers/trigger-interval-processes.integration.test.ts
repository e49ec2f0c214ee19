import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "../recovery/testing/index";
import { listTriggers } from "./list-triggers";

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
  source: string;
  status: string;
  context: Record<string, unknown>;
}

describe("three worker processes running the same interval schedule (issue 20)", () => {
  it("fire each one-second window once, on the grid, and list it as Cloacina's trigger with its interval", async () => {
    for (let i = 0; i < 3; i++) {
      processes.push(
        spawnTestProcess(NODE, {
          DATABASE_URL: db.url,
          NODE_ID: `interval-node-${i}`,
          TRIGGER_KIND: "interval",
        }),
      );
    }
    await Promise.all(processes.map((p) => p.waitFor((line) => line.event === "ready")));
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM cyclium_trigger_firings WHERE status = 'completed'",
        );
        expect(rows[0]?.n).toBeGreaterThanOrEqual(4);
      },
      { timeout: 60_000, interval: 100 },
    );
    await Promise.all(processes.map((p) => p.kill("SIGTERM")));

    const { rows: firings } = await db.pool.query<Firing>(
      `SELECT id, scheduled_time, source, status, context FROM cyclium_trigger_firings
        ORDER BY scheduled_time`,
    );
    expect(firings.length).toBeGreaterThanOrEqual(4);
    const windows = firings.map((firing) => firing.scheduled_time.getTime());
    // Once per window across the three nodes, and every window on the one-second grid.
    expect(new Set(windows).size).toBe(firings.length);
    expect(windows.every((ms) => ms % 1_000 === 0)).toBe(true);
    for (const firing of firings) {
      expect(firing.source).toBe("interval");
      expect(firing.context).toMatchObject({
        trigger_name: "every_second",
        scheduled_time: firing.scheduled_time.toISOString(),
        schedule_expression: "@every 1s",
        schedule_timezone: "UTC",
      });
    }
    // One primary instance, hence one episode, per window.
    const { rows: perWindow } = await db.pool.query<{ firing_id: string; n: number }>(
      `SELECT w.firing_id, count(e.id)::int AS n
         FROM cyclium_workflow_instances w JOIN cyclium_episodes e ON e.workflow_instance_id = w.id
        WHERE w.workflow_name = 'tick_flow' GROUP BY w.firing_id`,
    );
    expect(perWindow.every((row) => row.n === 1)).toBe(true);

    const listed = await listTriggers({ db: db.pool, tenantId: "public" });
    expect(listed.items).toEqual([
      expect.objectContaining({
        trigger_name: "every_second",
        schedule_type: "trigger",
        cron_expression: null,
        poll_interval_ms: 1_000,
        kind: "interval",
        interval_ms: 1_000,
        catch_up: "skip",
      }),
    ]);
  }, 90_000);
});
