import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnTestProcess, type TestProcess } from "../recovery/testing/index";

const NODE = fileURLToPath(new URL("./testing/catch-up-node-process.ts", import.meta.url));

let db: TestDatabase;
const processes: TestProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill("SIGKILL")));
  await db.drop();
});

describe("catch-up run_all on three worker processes", () => {
  it("fires each missed window once, oldest first, no more than the cap, with the cron context", async () => {
    // The cluster was down for ten minutes: the stored next run is eleven windows back (the
    // current minute's start included). The rule is the one the nodes register, so they keep it.
    const { rows: seeded } = await db.pool.query<{ id: string; due: Date }>(
      `INSERT INTO cyclium_triggers (name, env, kind, cron, timezone, workflow, catch_up, next_fire_at)
       VALUES ('backlog', NULL, 'cron', '* * * * *', 'UTC', 'report', 'run_all',
               date_trunc('minute', now()) - interval '10 minutes')
       RETURNING id, next_fire_at AS due`,
    );
    const { id, due } = seeded[0] as { id: string; due: Date };
    const cap = 4;
    for (let i = 0; i < 3; i++) {
      processes.push(
        spawnTestProcess(NODE, {
          DATABASE_URL: db.url,
          NODE_ID: `node-${i}`,
          CATCH_UP_LIMIT: String(cap),
        }),
      );
    }
    await Promise.all(processes.map((p) => p.waitFor((line) => line.event === "ready")));
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM cyclium_trigger_firings WHERE scheduled_time < $1",
          [new Date(due.getTime() + 10 * 60_000)],
        );
        expect(rows[0]?.n).toBe(cap);
      },
      { timeout: 60_000, interval: 100 },
    );
    // SIGTERM lets each node finish a turn in progress: whatever was going to fire has fired.
    await Promise.all(processes.map((p) => p.kill("SIGTERM")));

    const { rows: firings } = await db.pool.query<{
      scheduled_time: Date;
      fired_by: string;
      context: Record<string, unknown>;
    }>(
      `SELECT scheduled_time, fired_by, context FROM cyclium_trigger_firings
        WHERE scheduled_time <= $1 ORDER BY scheduled_time`,
      [new Date(due.getTime() + 10 * 60_000)],
    );
    expect(firings.map((firing) => firing.scheduled_time.getTime())).toEqual(
      Array.from({ length: cap }, (_, i) => due.getTime() + i * 60_000),
    );
    // One node won the turn and fired the whole backlog.
    expect(new Set(firings.map((firing) => firing.fired_by)).size).toBe(1);
    expect(firings[0]?.context).toMatchObject({
      schedule_id: id,
      schedule_timezone: "UTC",
      schedule_expression: "* * * * *",
      scheduled_time: due.toISOString(),
      trigger_name: "backlog",
    });
    const { rows: trigger } = await db.pool.query<{ next_fire_at: Date }>(
      "SELECT next_fire_at FROM cyclium_triggers WHERE id = $1",
      [id],
    );
    // The rest of the backlog (due + 4 .. due + 10 min) is dropped: the next run is the first
    // window after the turn, which came after due + 10 min. Not compared with now(): a run that
    // crosses a minute boundary would see that window already due.
    expect(trigger[0]?.next_fire_at.getTime()).toBeGreaterThanOrEqual(due.getTime() + 11 * 60_000);
  });
});
