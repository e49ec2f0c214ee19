import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ActorRegistry, defineActor, done, fail, StrategyRegistry } from "../actors/index";
import type { Strategy } from "../actors/index";
import { MemoryBus } from "../bus/index";
import { PostgresWorkClaims } from "../claims/index";
import { ModeController } from "../modes/index";
import { ActorHost, cancelEpisode } from "../runtime/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { loadWorkflowInstance } from "./load-workflow-instance";
import { parseStepStates } from "./workflow-instance-row";
import { resumeWorkflowInstance, retryWorkflowStep } from "./operator-actions";
import { defineWorkflow } from "./workflow-definition";
import { WorkflowEngine } from "./workflow-engine";
import { WorkflowRegistry } from "./workflow-registry";

// SPEC 12 workflow failure policies, end to end: real episodes run by an ActorHost on a real
// database, the engine advancing on their bus events and cancelling through the runtime.
let db: TestDatabase;
let host: ActorHost;
let engine: WorkflowEngine;
const bus = new MemoryBus();
let failFlaky = true;
const aborted = new Set<string>();

const oneStep = (ok: () => boolean): Strategy<unknown, null> => ({
  init: () => null,
  step: () => (ok() ? done({ ok: true }) : fail("test_failure", "asked to fail")),
});
const untilAborted: Strategy<unknown, null> = {
  init: () => null,
  step: async (_state, ctx) => {
    try {
      await sleep(60_000, undefined, { signal: ctx.signal });
    } catch (error) {
      aborted.add(ctx.episode.id);
      throw error;
    }
    return done();
  },
};

const manual = (identifier: string, strategy: Strategy<unknown, null>) =>
  defineActor({
    identifier,
    expectations: [{ id: "run", strategy, trigger: { manual: true } }],
  });

const workflows = new WorkflowRegistry().register(
  defineWorkflow({
    name: "paused_wf",
    failurePolicy: "pause",
    steps: [
      { name: "a", actor: "wf_flaky", expectation: "run" },
      { name: "b", actor: "wf_ok", expectation: "run", dependsOn: ["a"] },
    ],
  }),
  defineWorkflow({
    name: "abort_wf",
    failurePolicy: "abort",
    steps: [
      { name: "slow", actor: "wf_slow", expectation: "run" },
      { name: "failing", actor: "wf_fail", expectation: "run" },
      { name: "later", actor: "wf_ok", expectation: "run", dependsOn: ["slow"] },
    ],
  }),
);

beforeAll(async () => {
  db = await createTestDatabase();
  const telemetry = new Telemetry();
  const nodeIdentity = "wf-node";
  const registry = new ActorRegistry({
    actors: [
      manual(
        "wf_ok",
        oneStep(() => true),
      ),
      manual(
        "wf_fail",
        oneStep(() => false),
      ),
      manual(
        "wf_flaky",
        oneStep(() => !failFlaky),
      ),
      manual("wf_slow", untilAborted),
    ],
    strategies: new StrategyRegistry({}),
  });
  host = new ActorHost({
    db: db.pool,
    registry,
    modes: new ModeController({ nodeIdentity, baseMode: "full" }),
    claims: new PostgresWorkClaims({ db: db.pool, telemetry }),
    // Short lease: the heartbeat renews every second, so a cancelled claim aborts quickly.
    leaseSeconds: 3,
    nodeIdentity,
    stack: null,
    env: null,
    bus,
    jitterMs: 0,
    logger: silentLogger,
    telemetry,
  });
  host.start();
  // Wired as workflowExtension wires it on a node.
  engine = new WorkflowEngine({
    db: db.pool,
    bus,
    registry: workflows,
    startStep: (request) => host.fire(request),
    cancelEpisode: (episodeId) =>
      cancelEpisode(
        { episodeId, errorClass: "workflow_aborted", reason: "aborted", bus, logger: silentLogger },
        db.pool,
      ),
    scope: { stack: null, env: null },
  });
  engine.start();
});

afterAll(async () => {
  engine.stop();
  await host.stop({ graceMs: 0 });
  await db.drop();
});

async function instanceWhen(id: string, status: string) {
  return vi.waitFor(
    async () => {
      const instance = await loadWorkflowInstance(id, db.pool);
      expect(instance?.status).toBe(status);
      return { steps: parseStepStates(instance?.step_states) };
    },
    { timeout: 15_000, interval: 25 },
  );
}

describe("workflow failure policies", () => {
  it("pause: a failed step blocks the instance; an operator retry completes it", async () => {
    const { instanceId } = await engine.startWorkflow({ workflow: "paused_wf" });
    const blocked = await instanceWhen(instanceId, "blocked");
    expect(blocked.steps.a).toMatchObject({ status: "paused", attempt: 1 });
    expect(blocked.steps.b).toMatchObject({ status: "pending" });

    failFlaky = false;
    await expect(retryWorkflowStep({ engine, instanceId, step: "a" })).resolves.toEqual({
      retried: true,
    });
    const finished = await instanceWhen(instanceId, "done");
    expect(finished.steps.a).toMatchObject({ status: "done", attempt: 2 });
    expect(finished.steps.b).toMatchObject({ status: "done" });
    // Not blocked any more: a second operator click is refused, not applied twice.
    await expect(resumeWorkflowInstance({ engine, instanceId })).rejects.toThrow("not blocked");
  });

  it("abort: a failed step cancels the running sibling through the runtime and the pending ones", async () => {
    const { instanceId } = await engine.startWorkflow({ workflow: "abort_wf" });
    const failed = await instanceWhen(instanceId, "failed");
    expect(failed.steps.failing).toMatchObject({ status: "failed" });
    expect(failed.steps.slow).toMatchObject({ status: "cancelled" });
    expect(failed.steps.later).toMatchObject({ status: "cancelled" });
    const slowEpisode = failed.steps.slow?.episodeId;
    if (!slowEpisode) throw new Error("slow step had no episode");
    // The engine commits the instance's failure first and cancels the running sibling right
    // after (its episode is not in the instance's transaction), so the cancel may land a moment
    // after the instance reads failed.
    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string; error_class: string }>(
          `SELECT status, error_class FROM cyclium_episodes WHERE id = $1`,
          [slowEpisode],
        );
        expect(rows[0]).toEqual({ status: "cancelled", error_class: "workflow_aborted" });
      },
      { timeout: 10_000, interval: 25 },
    );
    // The running strategy itself was stopped (its claim was failed under it).
    await vi.waitFor(() => expect(aborted.has(slowEpisode)).toBe(true), { timeout: 10_000 });
    const later = await db.pool.query(
      `SELECT 1 FROM cyclium_episodes WHERE workflow_instance_id = $1 AND workflow_step = 'later'`,
      [instanceId],
    );
    expect(later.rowCount).toBe(0);
  });
});
