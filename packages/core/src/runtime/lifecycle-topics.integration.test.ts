import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ALL_TOPICS, MemoryBus, type BusEvent } from "../bus/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import { createHostFixture, stepsStrategy } from "./testing/index";

let db: TestDatabase;
const { startHost, actor, fired, stopAll } = createHostFixture(() => db.pool);

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await stopAll();
});
afterAll(async () => {
  await db.drop();
});

function recorder() {
  const bus = new MemoryBus();
  const telemetry = new Telemetry();
  const topics: BusEvent[] = [];
  const events: TelemetryEvent[] = [];
  bus.subscribe(ALL_TOPICS, (event) => void topics.push(event));
  telemetry.subscribe((event) => events.push(event));
  const count = (topic: string) => ({
    bus: topics.filter((event) => event.topic === topic).length,
    telemetry: events.filter((event) => event.name === `cyclium.${topic}`).length,
  });
  return { bus, telemetry, topics, count };
}

describe("lifecycle topics (issue 20)", () => {
  it("announces triggered, queued, overflow and dropped once per occurrence", async () => {
    const seen = recorder();
    const { host } = startHost(
      [
        actor("one_slot", stepsStrategy, {
          maxConcurrentEpisodes: 1,
          episodeOverflow: "drop",
          maxQueuedEpisodes: 1,
        }),
      ],
      { bus: seen.bus, telemetry: seen.telemetry },
    );
    const long = { steps: 0, stepMs: 50 };
    const running = await fired(host, "one_slot", long);
    const waiting = await fired(host, "one_slot", long);
    await expect(
      host.fire({ actorId: "one_slot", expectationId: "run", triggerType: "manual" }),
    ).resolves.toMatchObject({ kind: "dropped" });

    await expect.poll(() => seen.count("episode.dropped")).toEqual({ bus: 1, telemetry: 1 });
    expect(seen.count("expectation.triggered")).toEqual({ bus: 2, telemetry: 2 });
    expect(seen.count("episode.queued")).toEqual({ bus: 1, telemetry: 1 });
    expect(seen.count("actor.overflow")).toEqual({ bus: 1, telemetry: 1 });
    const triggered = seen.topics.filter((event) => event.topic === "expectation.triggered");
    expect(triggered.map((event) => (event.payload as { episode_id: string }).episode_id)).toEqual([
      running,
      waiting,
    ]);
    expect(seen.topics.find((event) => event.topic === "episode.queued")?.payload).toMatchObject({
      episode_id: waiting,
      actor_id: "one_slot",
      expectation_id: "run",
    });
    expect(seen.topics.find((event) => event.topic === "actor.overflow")?.payload).toMatchObject({
      actor_id: "one_slot",
      policy: "drop",
      max_queued: 1,
    });
  });
});
