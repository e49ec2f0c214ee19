import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defineWorkflow, WorkflowRegistry } from "../workflows/index";
import { pauseTrigger, resumeTrigger } from "./pause-trigger";
import {
  defineTrigger,
  TriggerResult,
  type TriggerDefinition,
  type TriggerPollResult,
} from "./trigger-definition";
import { TriggerRegistry } from "./trigger-registry";
import { PgListener } from "../bus/index";
import { TriggerScheduler } from "./trigger-scheduler";
import type { WorkflowStarter } from "./fan-out-firing";

let db: TestDatabase;
let pools: pg.Pool[];

beforeAll(async () => {
  db = await createTestDatabase();
  pools = Array.from({ length: 3 }, () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 3 });
    // The teardown's DROP DATABASE terminates whatever is still closing: a clean-clone run saw
    // one ending client's 57P01 reach the pool with no listener, an unhandled error that failed
    // the whole run after every test had passed.
    pool.on("error", () => undefined);
    pool.on("connect", (client) => client.on("error", () => undefined));
    return pool;
  });
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query("TRUNCATE cyclium_triggers, cyclium_workflow_instances CASCADE");
});

const step = { name: "s", actor: "a", expectation: "e" };
const workflows = new WorkflowRegistry().register(
  defineWorkflow({ name: "primary", steps: [step] }),
  defineWorkflow({ name: "audit", steps: [step], triggers: ["every_minute", "sensor"] }),
);

/** Records starts instead of running workflows; the firing record is what is under test. */
function recordingStarter(): WorkflowStarter & {
  calls: { workflow: string; context: Record<string, unknown> }[];
} {
  const calls: { workflow: string; context: Record<string, unknown> }[] = [];
  const start: WorkflowStarter = (options) => {
    calls.push({ workflow: options.workflow, context: options.context });
    return Promise.resolve({ instanceId: crypto.randomUUID() });
  };
  return Object.assign(start, { calls });
}

/** Three nodes' schedulers, each on a pool of its own. */
function nodes(definition: TriggerDefinition, starter: WorkflowStarter): TriggerScheduler[] {
  return pools.map(
    (pool, i) =>
      new TriggerScheduler({
        db: pool,
        env: null,
        node: `node-${i}`,
        triggers: new TriggerRegistry().register(definition),
        workflows,
        startWorkflow: starter,
        tickMs: 20,
      }),
  );
}

async function firings(): Promise<
  {
    scheduled_time: Date | null;
    source: string;
    fired_by: string;
    outcomes: { workflow: string }[];
  }[]
> {
  const { rows } = await db.pool.query<{
    scheduled_time: Date | null;
    source: string;
    fired_by: string;
    outcomes: { workflow: string }[];
  }>(
    "SELECT scheduled_time, source, fired_by, outcomes FROM cyclium_trigger_firings ORDER BY inserted_at",
  );
  return rows;
}

/** Makes the stored next fire the start of the current minute: due, and on time, right now. */
async function makeDue(name: string): Promise<Date> {
  const { rows } = await db.pool.query<{ due: Date }>(
    "UPDATE cyclium_triggers SET next_fire_at = date_trunc('minute', now()) WHERE name = $1 RETURNING next_fire_at AS due",
    [name],
  );
  return (rows[0] as { due: Date }).due;
}

describe("cron triggers across nodes", () => {
  const everyMinute = defineTrigger({ name: "every_minute", on: "primary", cron: "* * * * *" });

  it("fires a window seen by three nodes once, fanning out to subscribers", async () => {
    const starter = recordingStarter();
    const schedulers = nodes(everyMinute, starter);
    await Promise.all(schedulers.map((scheduler) => scheduler.register()));
    for (let round = 0; round < 5; round++) {
      await db.pool.query("TRUNCATE cyclium_trigger_firings");
      starter.calls.length = 0;
      const due = await makeDue("every_minute");
      await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
      const rows = await firings();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.scheduled_time).toEqual(due);
      expect(starter.calls.map((call) => call.workflow)).toEqual(["primary", "audit"]);
      expect(starter.calls[0]?.context).toMatchObject({
        trigger_name: "every_minute",
        scheduled_time: due.toISOString(),
      });
    }
  });

  it("with real ticking on three nodes, each second's window fires exactly once", async () => {
    const everySecond = defineTrigger({ name: "every_second", on: "primary", cron: "* * * * * *" });
    const starter = recordingStarter();
    const schedulers = nodes(everySecond, starter);
    await Promise.all(schedulers.map((scheduler) => scheduler.start()));
    try {
      await vi.waitFor(
        async () => {
          expect((await firings()).length).toBeGreaterThanOrEqual(3);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await Promise.all(schedulers.map((scheduler) => scheduler.stop()));
    }
    const rows = await firings();
    const windows = rows.map((row) => row.scheduled_time?.toISOString());
    expect(new Set(windows).size).toBe(rows.length);
    expect(starter.calls.filter((call) => call.workflow === "primary")).toHaveLength(rows.length);
  });

  it("a paused trigger fires on no node until resumed, and resuming does not replay the backlog", async () => {
    const starter = recordingStarter();
    const schedulers = nodes(everyMinute, starter);
    await Promise.all(schedulers.map((scheduler) => scheduler.register()));
    await pauseTrigger({
      db: db.pool,
      tenantId: "default",
      name: "every_minute",
      by: "ops@example.com",
    });
    await makeDue("every_minute");
    for (let i = 0; i < 3; i++) {
      await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    }
    expect(await firings()).toHaveLength(0);

    await resumeTrigger({ db: db.pool, tenantId: "default", name: "every_minute" });
    const { rows } = await db.pool.query<{ next_fire_at: Date; now: Date }>(
      "SELECT next_fire_at, now() FROM cyclium_triggers WHERE name = 'every_minute'",
    );
    expect(rows[0]?.next_fire_at.getTime()).toBeGreaterThan(rows[0]?.now.getTime() ?? Infinity);
    await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
    expect(await firings()).toHaveLength(0);

    await makeDue("every_minute");
    await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
    await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    expect(await firings()).toHaveLength(1);
  });

  it("catches up missed windows by policy when the cluster comes back", async () => {
    for (const catchUp of ["skip", "latest"] as const) {
      await db.pool.query("TRUNCATE cyclium_triggers CASCADE");
      const hourly = defineTrigger({
        name: "every_minute",
        on: "primary",
        cron: "0 * * * *",
        catchUp,
        misfireGraceMs: 0, // so the current hour's window counts as missed whenever this runs
      });
      const [scheduler] = nodes(hourly, recordingStarter());
      await scheduler?.register();
      await db.pool.query(
        "UPDATE cyclium_triggers SET next_fire_at = date_trunc('hour', now()) - interval '5 hours'",
      );
      await scheduler?.tick();
      await scheduler?.idle();
      const rows = await firings();
      if (catchUp === "skip") expect(rows).toHaveLength(0);
      else expect(rows.map((row) => row.scheduled_time?.getUTCMinutes())).toEqual([0]);
    }
  });
});

describe("poll triggers", () => {
  it("polls once per interval across nodes; an unchanged condition waits for its open firing", async () => {
    const poll = vi.fn(() => true);
    const sensor = defineTrigger({ name: "sensor", on: "primary", poll, pollIntervalMs: 100 });
    const starter = recordingStarter();
    const schedulers = nodes(sensor, starter);
    await Promise.all(schedulers.map((scheduler) => scheduler.register()));
    const turn = async () => {
      await db.pool.query("UPDATE cyclium_triggers SET next_fire_at = NULL WHERE name = 'sensor'");
      await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
      await Promise.all(schedulers.map((scheduler) => scheduler.idle()));
    };
    await turn();
    expect(poll).toHaveBeenCalledTimes(1);
    expect(await firings()).toHaveLength(1);

    await turn(); // the first firing's workflow is still running: same (empty) context, no fire
    expect(poll).toHaveBeenCalledTimes(2);
    expect(await firings()).toHaveLength(1);

    await db.pool.query("UPDATE cyclium_trigger_firings SET status = 'completed'");
    await turn();
    expect(await firings()).toHaveLength(2);
  });

  it("allowConcurrent fires again while the previous firing is open; false and skip() do not fire", async () => {
    let answer: boolean | TriggerPollResult = true;
    const sensor = defineTrigger({
      name: "sensor",
      on: "primary",
      poll: () => answer,
      pollIntervalMs: 100,
      allowConcurrent: true,
    });
    const [scheduler] = nodes(sensor, recordingStarter());
    if (!scheduler) throw new Error("no scheduler");
    await scheduler.register();
    const turn = async () => {
      await db.pool.query("UPDATE cyclium_triggers SET next_fire_at = NULL WHERE name = 'sensor'");
      await scheduler.tick();
      await scheduler.idle();
    };
    await turn();
    await turn();
    expect(await firings()).toHaveLength(2);
    answer = false;
    await turn();
    answer = TriggerResult.skip();
    await turn();
    expect(await firings()).toHaveLength(2);
  });
});

describe("waking on a change", () => {
  it("polls a resumed trigger at once, through NOTIFY, though its fallback read is a minute away", async () => {
    let polls = 0;
    const sensor = defineTrigger({
      name: "sensor",
      on: "primary",
      poll: () => {
        polls += 1;
        return TriggerResult.skip();
      },
      pollIntervalMs: 60_000,
    });
    const listener = new PgListener({ connection: db.url });
    await listener.start();
    const scheduler = new TriggerScheduler({
      db: db.pool,
      env: null,
      node: "node-0",
      triggers: new TriggerRegistry().register(sensor),
      workflows,
      startWorkflow: recordingStarter(),
      tickMs: 20,
      maxTickMs: 60_000,
      listener,
    });
    try {
      await scheduler.register();
      await pauseTrigger({ db: db.pool, tenantId: "default", name: "sensor", by: "test" });
      await scheduler.start();
      // Paused: the first read finds nothing due and waits for the longest wait, a minute.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(polls).toBe(0);
      await resumeTrigger({ db: db.pool, tenantId: "default", name: "sensor" });
      await vi.waitFor(() => expect(polls).toBe(1), { timeout: 2_000, interval: 20 });
    } finally {
      await scheduler.stop();
      await listener.close();
    }
  });
});
