import { ActorRegistry, StrategyRegistry, defineActor, done } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  auditRows,
  seedTestUsers,
  testContext,
  type TTestUsers,
} from "../../auth/testing/auth-test-kit";
import { setConsoleRuntime, type TConsoleRuntime } from "../../runtime/console-runtime";
import { createCaller } from "../root-router";

// The console side of SPEC 12 (checkpoints, circuit breakers, workflow pause policy) through
// createCaller on a real database. The runtime is a stand-in holding only what these procedures
// read: a real ActorRegistry with one breaker-guarded expectation, and a workflow engine whose
// compare-and-set outcome each test sets (the engine itself is covered in core's
// failure-policies.integration.test.ts).
let database: TestDatabase;
let users: TTestUsers;
const engineCalls: unknown[] = [];
let engineApplies = true;

const registry = new ActorRegistry({
  strategies: new StrategyRegistry({}),
  actors: [
    defineActor({
      identifier: "flaky",
      expectations: [
        {
          id: "on_run",
          strategy: { init: () => null, step: () => done() },
          trigger: {
            event: "flaky.run",
            circuitBreaker: { threshold: 3, halfOpenAfterMs: 60_000 },
          },
        },
      ],
    }),
  ],
});

const runtime = {
  nodeIdentity: "web-test",
  registry,
  workflowOperator: {
    resume: (input: { instanceId: string }) => {
      engineCalls.push({ resume: input });
      return Promise.resolve({ kind: engineApplies ? "resumed" : "not_blocked" });
    },
    retryStep: (input: { instanceId: string; step: string }) => {
      engineCalls.push({ retryStep: input });
      return Promise.resolve({ kind: engineApplies ? "retried" : "not_paused" });
    },
  },
} as unknown as TConsoleRuntime;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  setConsoleRuntime(runtime);
});

afterAll(async () => {
  setConsoleRuntime(null);
  await database?.drop();
});

beforeEach(() => {
  engineCalls.length = 0;
  engineApplies = true;
});

const viewer = () => createCaller(testContext(database.pool, users.viewer));
const operator = () => createCaller(testContext(database.pool, users.operator));
const instanceId = "7d1f3a52-8a0e-4a57-9a43-3f6a1c2b9e01";

describe("episodes.checkpoints", () => {
  it("lists an episode's checkpoints oldest first with phase and schema version", async () => {
    const { rows } = await database.pool.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       VALUES ('flaky', 'on_run', 'running', 'manual') RETURNING id`,
    );
    const episodeId = rows[0]?.id ?? "";
    await database.pool.query(
      `INSERT INTO cyclium_episode_checkpoints (episode_id, number, phase, schema_version, state)
       VALUES ($1, 3, 'analyse', 2, '{"n":3}'), ($1, 0, 'init', 1, '{}')`,
      [episodeId],
    );
    const checkpoints = await viewer().episodes.checkpoints({ id: episodeId });
    expect(checkpoints.map((c) => [c.number, c.phase, c.schemaVersion])).toEqual([
      [0, "init", 1],
      [3, "analyse", 2],
    ]);
    expect(checkpoints[1]?.insertedAt).toBeInstanceOf(Date);
  });

  it("answers an empty list for an episode without checkpoints", async () => {
    expect(await viewer().episodes.checkpoints({ id: instanceId })).toEqual([]);
  });
});

describe("actors.circuitBreakers", () => {
  it("is closed until the newest `threshold` finished episodes all failed, then open", async () => {
    const before = await viewer().actors.circuitBreakers({});
    expect(before).toEqual([
      expect.objectContaining({
        actorId: "flaky",
        expectationId: "on_run",
        state: "closed",
        threshold: 3,
        halfOpenAfterMs: 60_000,
      }),
    ]);
    await database.pool.query(
      `INSERT INTO cyclium_episodes
         (actor_id, expectation_id, status, trigger_type, finished_at, inserted_at)
       SELECT 'flaky', 'on_run', 'failed', 'event', now(), now() + make_interval(secs => i)
         FROM generate_series(1, 3) AS i`,
    );
    const [breaker] = await viewer().actors.circuitBreakers({});
    expect(breaker).toMatchObject({ state: "open", consecutiveFailures: 3, allowsFire: false });
    expect(breaker?.halfOpenAt).toBeInstanceOf(Date);
    // Another env has no episodes of its own: its breaker is closed.
    const [staging] = await viewer().actors.circuitBreakers({ env: "staging" });
    expect(staging?.state).toBe("closed");
  });
});

describe("workflows.resume / workflows.retryStep", () => {
  it("resumes a blocked instance through the engine and audits it", async () => {
    expect(await operator().workflows.resume({ instanceId })).toEqual({ resumed: true });
    expect(engineCalls).toEqual([{ resume: { instanceId } }]);
    const audit = await auditRows(database.pool, "workflows.resume");
    expect(audit).toMatchObject([{ outcome: "ok", target: instanceId }]);
  });

  it("retries a paused step and records the step in the audit", async () => {
    expect(await operator().workflows.retryStep({ instanceId, step: "a" })).toEqual({
      retried: true,
    });
    expect(engineCalls).toEqual([{ retryStep: { instanceId, step: "a" } }]);
    const audit = await auditRows(database.pool, "workflows.retryStep");
    expect(audit).toMatchObject([{ outcome: "ok", target: instanceId, detail: { step: "a" } }]);
  });

  it("answers CONFLICT when the instance is not blocked (or the step not paused)", async () => {
    engineApplies = false;
    await expect(operator().workflows.resume({ instanceId })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    const retry = operator().workflows.retryStep({ instanceId, step: "a" });
    await expect(retry).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(retry).rejects.toThrow('Step "a"');
  });

  it("refuses viewers before the engine is reached, and records the refusal", async () => {
    await expect(viewer().workflows.resume({ instanceId })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(viewer().workflows.retryStep({ instanceId, step: "a" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(engineCalls).toEqual([]);
    for (const action of ["workflows.resume", "workflows.retryStep"]) {
      const rows = await auditRows(database.pool, action);
      expect(rows.filter((row) => row.outcome === "refused")).toHaveLength(1);
    }
  });
});
