import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOPICS, MemoryBus, type BusEvent } from "../bus/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import {
  EPISODE_COMPLETED_TOPIC,
  EPISODE_FAILED_TOPIC,
  type TEpisodeEvent,
} from "../episodes/episode-events";
import { databaseStepStarter } from "./testing/index";
import { defineWorkflow } from "./workflow-definition";
import { WorkflowEngine } from "./workflow-engine";
import { WorkflowRegistry } from "./workflow-registry";

// Issue 20: workflow.started / completed / failed, once per instance transition, although every
// node's engine sees the same episode events (only the engine whose compare-and-set applied the
// transition announces it).
let db: TestDatabase;
const bus = new MemoryBus();
const telemetry = new Telemetry();
const topics: BusEvent[] = [];
const events: TelemetryEvent[] = [];
const engines: WorkflowEngine[] = [];

const pipeline = defineWorkflow({
  name: "pipeline",
  steps: [
    { name: "check", actor: "monitor", expectation: "check" },
    { name: "advise", actor: "advisor", expectation: "advise", dependsOn: ["check"] },
  ],
});

beforeAll(async () => {
  db = await createTestDatabase();
  bus.subscribe(ALL_TOPICS, (event) => void topics.push(event));
  telemetry.subscribe((event) => events.push(event));
  for (let node = 0; node < 3; node++) {
    const engine = new WorkflowEngine({
      db: db.pool,
      bus,
      telemetry,
      registry: new WorkflowRegistry().register(pipeline),
      startStep: databaseStepStarter(db.pool, null).start,
      scope: { stack: null, env: null },
    });
    engine.start();
    engines.push(engine);
  }
});

afterAll(async () => {
  for (const engine of engines) engine.stop();
  await db.drop();
});

/** Ends a step's episode as the runner does (final status, then the bus event every engine sees). */
async function finishStep(instanceId: string, step: string, status: "completed" | "failed") {
  const { rows } = await db.pool.query<{ id: string; actor_id: string; expectation_id: string }>(
    `UPDATE cyclium_episodes SET status = $3, finished_at = now()
      WHERE workflow_instance_id = $1 AND workflow_step = $2 AND status = 'running'
      RETURNING id, actor_id, expectation_id`,
    [instanceId, step, status],
  );
  const episode = rows[0];
  if (!episode) throw new Error(`no running episode for ${step}`);
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

const count = (topic: string) => ({
  bus: topics.filter((event) => event.topic === topic).length,
  telemetry: events.filter((event) => event.name === `cyclium.${topic}`).length,
});

describe("workflow lifecycle topics across three engines (issue 20)", () => {
  it("announces started, completed and failed once per instance", async () => {
    const done = await engines[0]!.startWorkflow({ workflow: "pipeline", context: {} });
    await expect.poll(() => count("workflow.started")).toEqual({ bus: 1, telemetry: 1 });
    await finishStep(done.instanceId, "check", "completed");
    await finishStep(done.instanceId, "advise", "completed");
    await expect.poll(() => count("workflow.completed")).toEqual({ bus: 1, telemetry: 1 });
    expect(topics.find((e) => e.topic === "workflow.completed")?.payload).toMatchObject({
      instance_id: done.instanceId,
      workflow: "pipeline",
    });

    const failing = await engines[1]!.startWorkflow({ workflow: "pipeline", context: {} });
    await expect.poll(() => count("workflow.started")).toEqual({ bus: 2, telemetry: 2 });
    // The default failure policy (abort) fails the instance when a step's episode fails.
    await finishStep(failing.instanceId, "check", "failed");
    await expect.poll(() => count("workflow.failed")).toEqual({ bus: 1, telemetry: 1 });
    expect(topics.find((e) => e.topic === "workflow.failed")?.payload).toMatchObject({
      instance_id: failing.instanceId,
    });
    // The same episode event seen again (a redelivery) changes nothing and announces nothing.
    await bus.publish(EPISODE_COMPLETED_TOPIC, {
      episodeId: "00000000-0000-0000-0000-000000000000",
      actorId: "advisor",
      expectationId: "advise",
      workflowInstanceId: done.instanceId,
      workflowStep: "advise",
      status: "completed",
      errorClass: null,
      errorMessage: null,
      sourceEnv: null,
    } satisfies TEpisodeEvent);
    await bus.drain();
    // A negative check: give a second engine's would-be duplicate time to arrive, then count.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await bus.drain();
    expect(count("workflow.started")).toEqual({ bus: 2, telemetry: 2 });
    expect(count("workflow.completed")).toEqual({ bus: 1, telemetry: 1 });
    expect(count("workflow.failed")).toEqual({ bus: 1, telemetry: 1 });
  });
});
