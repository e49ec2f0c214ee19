import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryBus } from "../bus/index";
import { isCycliumError } from "../errors/index";
import { reconcileWorkflows } from "../recovery/index";
import {
  EPISODE_COMPLETED_TOPIC,
  EPISODE_FAILED_TOPIC,
  type TEpisodeEvent,
} from "../episodes/episode-events";
import { loadWorkflowInstance } from "./load-workflow-instance";
import { parseStepStates } from "./workflow-instance-row";
import { databaseStepStarter } from "./testing/index";
import { defineWorkflow } from "./workflow-definition";
import { WorkflowEngine } from "./workflow-engine";
import { WorkflowRegistry } from "./workflow-registry";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query("TRUNCATE cyclium_episodes, cyclium_workflow_instances CASCADE");
});

const pipeline = defineWorkflow({
  name: "pipeline",
  steps: [
    { name: "check", actor: "resource_monitor", expectation: "check_resource_limits" },
    {
      name: "advise",
      actor: "resource_advisor",
      expectation: "advise",
      dependsOn: ["check"],
      input: (context) => ({ resource: context.resource, advice: true }),
    },
  ],
});

/** Finishes a step's episode the way the runner does: final status, then the bus event. */
async function finishStep(
  bus: MemoryBus,
  instanceId: string,
  step: string,
  status: "completed" | "failed" = "completed",
  publish = true,
): Promise<string> {
  const { rows } = await db.pool.query<{ id: string; actor_id: string; expectation_id: string }>(
    `UPDATE cyclium_episodes SET status = $3, finished_at = now()
      WHERE workflow_instance_id = $1 AND workflow_step = $2 AND status = 'running'
      RETURNING id, actor_id, expectation_id`,
    [instanceId, step, status],
  );
  const episode = rows[0];
  if (!episode) throw new Error(`no running episode for ${step}`);
  if (publish) {
    const payload: TEpisodeEvent = {
      episodeId: episode.id,
      actorId: episode.actor_id,
      expectationId: episode.expectation_id,
      workflowInstanceId: instanceId,
      workflowStep: step,
      status,
      errorClass: status === "failed" ? "boom" : null,
      errorMessage: null,
      sourceEnv: null,
    };
    await bus.publish(
      status === "completed" ? EPISODE_COMPLETED_TOPIC : EPISODE_FAILED_TOPIC,
      payload,
    );
    await bus.drain();
  }
  return episode.id;
}

function engineOn(bus: MemoryBus, env: string | null = null) {
  const starter = databaseStepStarter(db.pool, env);
  const engine = new WorkflowEngine({
    db: db.pool,
    bus,
    registry: new WorkflowRegistry().register(pipeline),
    startStep: starter.start,
    scope: { stack: null, env },
  });
  engine.start();
  return { engine, starter };
}

describe("WorkflowEngine", () => {
  it("runs steps in dependency order across two nodes' engines, each step started once", async () => {
    const bus = new MemoryBus();
    const nodeA = engineOn(bus);
    const nodeB = engineOn(bus);
    try {
      const started = await nodeA.engine.startWorkflow({
        workflow: "pipeline",
        context: { resource: "db-1" },
      });
      expect(started.status).toBe("running");
      const checkEpisode = await finishStep(bus, started.instanceId, "check");
      const requests = [...nodeA.starter.requests, ...nodeB.starter.requests];
      expect(requests.map((r) => r.workflowStep)).toEqual(["check", "advise"]);
      expect(requests[1]).toMatchObject({
        triggerType: "workflow",
        input: { resource: "db-1", advice: true },
        idempotencyKey: `workflow:${started.instanceId}:advise:1`,
      });

      // The same event again (a replay, a second delivery): nothing moves.
      expect(
        await nodeB.engine.handleEpisodeEvent({
          episodeId: checkEpisode,
          actorId: "resource_monitor",
          expectationId: "check_resource_limits",
          workflowInstanceId: started.instanceId,
          workflowStep: "check",
          status: "completed",
        }),
      ).toBe(false);

      await finishStep(bus, started.instanceId, "advise");
      const instance = await loadWorkflowInstance(started.instanceId, db.pool);
      expect(instance?.status).toBe("done");
      expect(instance?.finished_at).not.toBeNull();
      expect(nodeA.starter.requests.length + nodeB.starter.requests.length).toBe(2);
    } finally {
      nodeA.engine.stop();
      nodeB.engine.stop();
    }
  });

  it("fails the instance when a step's episode fails (abort)", async () => {
    const bus = new MemoryBus();
    const { engine } = engineOn(bus);
    try {
      const { instanceId } = await engine.startWorkflow({ workflow: "pipeline" });
      await finishStep(bus, instanceId, "check", "failed");
      const instance = await loadWorkflowInstance(instanceId, db.pool);
      expect(instance?.status).toBe("failed");
      expect(instance?.step_states).toMatchObject({
        check: { status: "failed" },
        advise: { status: "cancelled" },
      });
    } finally {
      engine.stop();
    }
  });

  it("fails the start when a root step cannot be started, and rejects unknown workflows", async () => {
    const engine = new WorkflowEngine({
      db: db.pool,
      registry: new WorkflowRegistry().register(pipeline),
      startStep: () => Promise.reject(new Error("actor resource_monitor is not registered")),
      scope: { stack: null, env: null },
    });
    const error = await engine.startWorkflow({ workflow: "pipeline" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/not registered/);
    const unknown = await engine.startWorkflow({ workflow: "nope" }).catch((e: unknown) => e);
    expect(isCycliumError(unknown, "not_found")).toBe(true);
  });

  it("leaves instances of another env to that env's engines", async () => {
    const bus = new MemoryBus();
    const prod = engineOn(bus, null);
    const rc = engineOn(bus, "rc");
    try {
      const { instanceId } = await rc.engine.startWorkflow({ workflow: "pipeline" });
      prod.engine.stop();
      await finishStep(bus, instanceId, "check");
      expect(rc.starter.requests.map((r) => r.workflowStep)).toEqual(["check", "advise"]);
      expect(prod.starter.requests).toEqual([]);
    } finally {
      prod.engine.stop();
      rc.engine.stop();
    }
  });

  it("reconcileWorkflows completes a workflow whose engine missed the episode event", async () => {
    const bus = new MemoryBus();
    const { engine } = engineOn(bus);
    try {
      const { instanceId } = await engine.startWorkflow({ workflow: "pipeline" });
      engine.stop(); // the engine's subscription is down, e.g. during a deploy
      await finishStep(bus, instanceId, "check");
      engine.start();
      expect((await loadWorkflowInstance(instanceId, db.pool))?.step_states).toMatchObject({
        check: { status: "running" },
      });

      const first = await reconcileWorkflows({
        db: db.pool,
        bus,
        scope: { stack: null, env: null },
      });
      await bus.drain();
      expect(first.replayed).toBe(1);
      await finishStep(bus, instanceId, "advise", "completed", false);
      const second = await reconcileWorkflows({
        db: db.pool,
        bus,
        scope: { stack: null, env: null },
      });
      await bus.drain();
      expect(second.replayed).toBe(1);
      expect((await loadWorkflowInstance(instanceId, db.pool))?.status).toBe("done");

      // Nothing left to replay, and another env's reconcile never looked at it.
      const rc = await reconcileWorkflows({ db: db.pool, bus, scope: { stack: null, env: "rc" } });
      expect(rc.replayed).toBe(0);
    } finally {
      engine.stop();
    }
  });
  it("fires a step its engine committed but never fired, and only that one", async () => {
    const bus = new MemoryBus();
    // Node A applies check's end, then dies while it fires advise: for the first instance the
    // fire never reaches the database; for the second it inserts the episode, then never returns.
    const reached = databaseStepStarter(db.pool);
    const nodeA = new WorkflowEngine({
      db: db.pool,
      registry: new WorkflowRegistry().register(pipeline),
      startStep: async (request) => {
        if (request.workflowStep !== "advise") return reached.start(request);
        if (
          request.input !== null &&
          (request.input as { resource?: string }).resource === "db-2"
        ) {
          await reached.start(request);
        }
        return new Promise(() => undefined);
      },
      scope: { stack: null, env: null },
    });
    const nodeB = engineOn(bus);
    try {
      const lost = await nodeA.startWorkflow({
        workflow: "pipeline",
        context: { resource: "db-1" },
      });
      const fired = await nodeA.startWorkflow({
        workflow: "pipeline",
        context: { resource: "db-2" },
      });
      for (const { instanceId } of [lost, fired]) {
        const episodeId = await finishStep(bus, instanceId, "check", "completed", false);
        void nodeA.handleEpisodeEvent({
          episodeId,
          actorId: "resource_monitor",
          expectationId: "check_resource_limits",
          workflowInstanceId: instanceId,
          workflowStep: "check",
          status: "completed",
        });
      }
      for (const { instanceId } of [lost, fired]) {
        await expect
          .poll(
            async () =>
              parseStepStates((await loadWorkflowInstance(instanceId, db.pool))?.step_states).advise
                ?.status,
          )
          .toBe("running");
      }

      // A live node may still be firing it: nothing happens before the instance is stale.
      expect(await nodeB.engine.startUnstartedSteps({ olderThanMs: 60_000 })).toBe(0);
      expect(await nodeB.engine.startUnstartedSteps({ olderThanMs: 0 })).toBe(1);
      expect(nodeB.starter.requests).toEqual([
        expect.objectContaining({
          workflowInstanceId: lost.instanceId,
          workflowStep: "advise",
          idempotencyKey: `workflow:${lost.instanceId}:advise:1`,
          input: { resource: "db-1", advice: true },
        }),
      ]);
      expect(await nodeB.engine.startUnstartedSteps({ olderThanMs: 0 })).toBe(0);

      await finishStep(bus, lost.instanceId, "advise");
      expect((await loadWorkflowInstance(lost.instanceId, db.pool))?.status).toBe("done");
      const { rows } = await db.pool.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM cyclium_episodes
          WHERE workflow_instance_id = ANY($1::uuid[]) AND workflow_step = 'advise'`,
        [[lost.instanceId, fired.instanceId]],
      );
      expect(rows[0]?.count).toBe(2);
    } finally {
      nodeA.stop();
      nodeB.engine.stop();
    }
  });
});
