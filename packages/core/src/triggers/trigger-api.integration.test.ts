import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryBus } from "../bus/index";
import { isCycliumError } from "../errors/index";
import {
  defineWorkflow,
  EPISODE_COMPLETED_TOPIC,
  WorkflowEngine,
  WorkflowRegistry,
  type TEpisodeEvent,
} from "../workflows/index";
import { databaseStepStarter } from "../workflows/testing/index";
import type { WorkflowStarter } from "./fan-out-firing";
import { fireTrigger } from "./fire-trigger";
import { inspectTrigger } from "./inspect-trigger";
import { listTriggers } from "./list-triggers";
import { pauseTrigger, resumeTrigger } from "./pause-trigger";
import { defineCronSchedule, defineTrigger } from "./trigger-definition";
import { TriggerRegistry } from "./trigger-registry";
import { TriggerScheduler } from "./trigger-scheduler";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query(
    "TRUNCATE cyclium_triggers, cyclium_workflow_instances, cyclium_episodes CASCADE",
  );
});

const step = { name: "check", actor: "resource_monitor", expectation: "check_resource_limits" };
const workflows = new WorkflowRegistry().register(
  defineWorkflow({ name: "review", steps: [step] }),
  defineWorkflow({ name: "flaky_audit", steps: [step], triggers: ["nightly"] }),
  defineWorkflow({ name: "notify", steps: [step], triggers: ["nightly", "schedule:review"] }),
);
const nightly = defineTrigger({
  name: "nightly",
  on: "review",
  cron: "0 2 * * *",
  timezone: "Europe/Paris",
});
const plain = defineCronSchedule({ workflow: "review", cron: "0 3 * * *" });
const triggers = new TriggerRegistry().register(nightly, plain);

async function registerIn(env: string | null, startWorkflow: WorkflowStarter) {
  await new TriggerScheduler({
    db: db.pool,
    env,
    node: "n",
    triggers,
    workflows,
    startWorkflow,
  }).register();
}

const failingSecondary: WorkflowStarter = (options) =>
  options.workflow === "flaky_audit"
    ? Promise.reject(new Error("audit service unavailable"))
    : Promise.resolve({ instanceId: crypto.randomUUID() });

async function expectCode(
  promise: Promise<unknown>,
  code: "not_found" | "conflict" | "invalid_input",
) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isCycliumError(error, code)).toBe(true);
}

describe("trigger API (REST shapes of SPEC section 12)", () => {
  it("lists and inspects per tenant, pauses and resumes", async () => {
    await registerIn(null, failingSecondary);
    await registerIn("rc", failingSecondary);
    const list = await listTriggers({
      db: db.pool,
      tenantId: "default",
      triggers,
      workflows,
      limit: 1,
      order: "name",
    });
    expect(list).toMatchObject({ tenant_id: "default", total: 2 });
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      name: "nightly",
      kind: "cron",
      workflow: "review",
      cron: "0 2 * * *",
      timezone: "Europe/Paris",
      paused: false,
      subscribers: ["review", "flaky_audit", "notify"],
    });
    const second = await listTriggers({
      db: db.pool,
      tenantId: "rc",
      triggers,
      workflows,
      offset: 1,
    });
    // Cloacina's order by default: newest first (nightly was registered before the schedule).
    expect(second.items.map((item) => [item.name, item.subscribers])).toEqual([
      ["nightly", ["review", "flaky_audit", "notify"]],
    ]);
    // `public` is Cloacina's name for the unset env, as `default` is ours.
    expect((await listTriggers({ db: db.pool, tenantId: "public" })).total).toBe(2);
    await expectCode(
      listTriggers({ db: db.pool, tenantId: "default", limit: 5000 }),
      "invalid_input",
    );

    const paused = await pauseTrigger({ db: db.pool, tenantId: "rc", name: "nightly", by: "ops" });
    expect(paused).toEqual({
      tenant_id: "rc",
      id: expect.any(String) as unknown,
      name: "nightly",
      status: "paused",
      paused: true,
    });
    const inspected = await inspectTrigger({ db: db.pool, tenantId: "rc", name: "nightly" });
    expect(inspected).toMatchObject({
      tenant_id: "rc",
      trigger: { paused: true, paused_by: "ops" },
      recent_firings: [],
    });
    expect(
      (await inspectTrigger({ db: db.pool, tenantId: "default", name: "nightly" })).trigger.paused,
    ).toBe(false);
    expect(await resumeTrigger({ db: db.pool, tenantId: "rc", name: "nightly" })).toEqual({
      tenant_id: "rc",
      id: paused.id,
      name: "nightly",
      status: "resumed",
      paused: false,
    });
    // Cloacina looks a trigger up by its workflow's name too: the primary of `nightly`.
    expect(
      await pauseTrigger({ db: db.pool, tenantId: "rc", name: "review", by: "ops" }),
    ).toMatchObject({ name: "review", status: "paused" });
    expect(
      (await inspectTrigger({ db: db.pool, tenantId: "rc", name: "nightly" })).schedule,
    ).toMatchObject({ trigger_name: "nightly", enabled: false, paused: true });
    await expectCode(
      inspectTrigger({ db: db.pool, tenantId: "default", name: "nope" }),
      "not_found",
    );
    await expectCode(pauseTrigger({ db: db.pool, tenantId: "default", name: "nope" }), "not_found");
  });

  it("a failing secondary subscriber does not fail the primary and is visible in the firing", async () => {
    await registerIn(null, failingSecondary);
    const fired = await fireTrigger({
      db: db.pool,
      tenantId: "default",
      name: "nightly",
      context: { reason: "backfill" },
      firedBy: "ops@example.com",
      startWorkflow: failingSecondary,
      triggers,
      workflows,
    });
    expect(fired).toMatchObject({ tenant_id: "default", trigger: "nightly", fired: 2 });
    expect(fired.executions.map(({ workflow, primary }) => ({ workflow, primary }))).toEqual([
      { workflow: "review", primary: true },
      { workflow: "notify", primary: false },
    ]);
    const { recent_firings } = await inspectTrigger({
      db: db.pool,
      tenantId: "default",
      name: "nightly",
    });
    expect(recent_firings).toHaveLength(1);
    expect(recent_firings[0]).toMatchObject({
      source: "manual",
      status: "running",
      error_message: null,
      fired_by: "ops@example.com",
      context: {
        reason: "backfill",
        trigger_name: "nightly",
        scheduled_time: null,
        manual_fire: true,
      },
    });
    expect(recent_firings[0]?.outcomes).toContainEqual({
      workflow: "flaky_audit",
      primary: false,
      status: "failed",
      instance_id: null,
      error: "audit service unavailable",
    });

    // The same context again while that firing is open: an operator's fire runs again.
    const again = await fireTrigger({
      db: db.pool,
      tenantId: "default",
      name: "nightly",
      context: { reason: "backfill" },
      firedBy: "ops@example.com",
      startWorkflow: failingSecondary,
      triggers,
      workflows,
    });
    expect(again).toMatchObject({ tenant_id: "default", trigger: "nightly", fired: 2 });
    expect(again.executions[0]?.execution_id).not.toBe(fired.executions[0]?.execution_id);
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM cyclium_trigger_firings WHERE status = 'running'",
    );
    expect(rows[0]?.n).toBe(2);
  });

  it("a failing primary fails the firing and the call; a paused trigger fires, an unknown one is refused", async () => {
    const failingPrimary: WorkflowStarter = () => Promise.reject(new Error("review is broken"));
    await registerIn(null, failingPrimary);
    const base = {
      db: db.pool,
      tenantId: "default",
      firedBy: "ops",
      startWorkflow: failingPrimary,
      triggers,
      workflows,
    };
    await expect(fireTrigger({ ...base, name: "schedule:review" })).rejects.toThrow(
      "review is broken",
    );
    const { recent_firings } = await inspectTrigger({
      db: db.pool,
      tenantId: "default",
      name: "schedule:review",
    });
    expect(recent_firings[0]).toMatchObject({
      status: "failed",
      error_message: "review is broken",
    });
    expect(recent_firings[0]?.outcomes.map((outcome) => outcome.workflow)).toEqual(["review"]);

    await pauseTrigger({ db: db.pool, tenantId: "default", name: "nightly" });
    const working = { ...base, startWorkflow: failingSecondary };
    const whilePaused = await fireTrigger({ ...working, name: "nightly", event: { run: 1 } });
    expect(whilePaused).toMatchObject({ fired: 2, trigger: "nightly" });
    expect(whilePaused.executions[0]).toMatchObject({ workflow_name: "review", primary: true });
    const { recent_executions } = await inspectTrigger({
      db: db.pool,
      tenantId: "public",
      name: "nightly",
    });
    expect(recent_executions[0]).toEqual({
      id: expect.any(String) as unknown,
      started_at: expect.any(String) as unknown,
      completed_at: null,
      scheduled_time: null,
    });
    await expectCode(fireTrigger({ ...base, name: "missing" }), "not_found");
    await expectCode(
      fireTrigger({ ...base, name: "nightly", event: 1, context: { a: 1 } }),
      "invalid_input",
    );
  });

  it("the firing closes when the primary workflow instance finishes", async () => {
    const bus = new MemoryBus();
    const starter = databaseStepStarter(db.pool);
    const engine = new WorkflowEngine({
      db: db.pool,
      bus,
      registry: workflows,
      startStep: starter.start,
      scope: { stack: null, env: null },
    });
    engine.start();
    try {
      const startWorkflow: WorkflowStarter = (options) => engine.startWorkflow(options);
      await registerIn(null, startWorkflow);
      const fired = await fireTrigger({
        db: db.pool,
        tenantId: "default",
        name: "schedule:review",
        firedBy: "ops",
        startWorkflow,
        triggers,
        workflows,
      });
      const instanceId = fired.executions[0]?.instance_id;
      const { rows } = await db.pool.query<{ id: string }>(
        "UPDATE cyclium_episodes SET status = 'completed' WHERE workflow_instance_id = $1 RETURNING id",
        [instanceId],
      );
      const payload: TEpisodeEvent = {
        episodeId: rows[0]?.id ?? "",
        actorId: step.actor,
        expectationId: step.expectation,
        workflowInstanceId: instanceId,
        workflowStep: "check",
        status: "completed",
      };
      await bus.publish(EPISODE_COMPLETED_TOPIC, payload);
      await bus.drain();
      const { recent_firings } = await inspectTrigger({
        db: db.pool,
        tenantId: "default",
        name: "schedule:review",
      });
      expect(recent_firings[0]).toMatchObject({ status: "completed" });
      expect(recent_firings[0]?.finished_at).not.toBeNull();
    } finally {
      engine.stop();
    }
  });
});
