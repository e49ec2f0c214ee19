import {
  PgBus,
  loadWorkflowInstance,
  parseStepStates,
  WorkflowEngine,
  WorkflowRegistry,
  defineWorkflow,
} from "@cyclium/core/console";
import { databaseStepStarter } from "@cyclium/core/testing";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seedTestUsers, testContext, type TTestUsers } from "../../auth/testing/auth-test-kit";
import { createCaller } from "../root-router";

// Issue 12: an operator's cancel from the console publishes `episode.cancelled` like the
// runtime's, so a workflow waiting on the cancelled step moves on at once. The engine here has
// no reconcile (it advances on bus events only), so without the event the instance would stay
// `running` until recovery's next reconcile (up to a minute).
let database: TestDatabase;
let users: TTestUsers;
let bus: PgBus;
let engine: WorkflowEngine;

const workflows = new WorkflowRegistry().register(
  defineWorkflow({
    name: "console_cancel_wf",
    failurePolicy: "pause",
    steps: [
      { name: "slow", actor: "alpha", expectation: "check" },
      { name: "after", actor: "alpha", expectation: "check", dependsOn: ["slow"] },
    ],
  }),
);

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  bus = await PgBus.start({ db: database.pool, connection: database.url, cleanup: false });
  engine = new WorkflowEngine({
    db: database.pool,
    bus,
    registry: workflows,
    startStep: databaseStepStarter(database.pool).start,
    scope: { stack: null, env: null },
  });
  engine.start();
});

afterAll(async () => {
  engine?.stop();
  await bus?.close();
  await database?.drop();
});

const operator = () => createCaller(testContext(database.pool, users.operator));

describe("cancelling a workflow's running step from the console", () => {
  it("moves the workflow on within a second, through the episode.cancelled event", async () => {
    const { instanceId } = await engine.startWorkflow({ workflow: "console_cancel_wf" });
    const started = await loadWorkflowInstance(instanceId, database.pool);
    const episodeId = parseStepStates(started?.step_states).slow?.episodeId;
    if (!episodeId) throw new Error("the slow step has no episode");

    const cancelledAt = Date.now();
    await operator().episodes.cancel({ id: episodeId });
    const moved = await vi.waitFor(
      async () => {
        const instance = await loadWorkflowInstance(instanceId, database.pool);
        expect(instance?.status).toBe("blocked");
        return parseStepStates(instance?.step_states);
      },
      { timeout: 1_000, interval: 20 },
    );
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    expect(moved.slow).toMatchObject({ status: "paused", episodeId });
    expect(moved.after).toMatchObject({ status: "pending" });
  });
});
