import { describe, expect, it } from "vitest";
import { useHostSuite } from "./testing/host-suite";
import { recordTopics } from "./testing/topic-recorder";
import { stepsStrategy } from "./testing/index";

// Issue 20: `drop` and `shed_oldest` with no queue at all (maxQueuedEpisodes 0), as Cyclium
// allows: a fire is refused only while every slot is busy.
const { db, startHost, actor, fired, episode, settled } = useHostSuite();

const noQueue = (identifier: string, overflow: "drop" | "shed_oldest") =>
  actor(identifier, stepsStrategy, {
    maxConcurrentEpisodes: 2,
    maxQueuedEpisodes: 0,
    episodeOverflow: overflow,
  });

async function rowsOf(actorId: string): Promise<number> {
  const { rowCount } = await db.pool.query("SELECT 1 FROM cyclium_episodes WHERE actor_id = $1", [
    actorId,
  ]);
  return rowCount ?? 0;
}

describe("overflow without a queue (issue 20)", () => {
  it("drop: free slots take fires; with every slot busy a fire is dropped, as a value", async () => {
    const seen = recordTopics();
    const { host } = startHost([noQueue("no_queue_drop", "drop")], {
      bus: seen.bus,
      telemetry: seen.telemetry,
    });
    // Two slots, no queue: both fires start at once (an empty queue is not a full one).
    const short = await fired(host, "no_queue_drop", { steps: 10, stepMs: 50 });
    await fired(host, "no_queue_drop", { steps: 0, stepMs: 50 });
    expect(host.runningCount("no_queue_drop")).toBe(2);

    await expect(
      host.fire({ actorId: "no_queue_drop", expectationId: "run", triggerType: "manual" }),
    ).resolves.toEqual({ kind: "dropped", actorId: "no_queue_drop", reason: "queue_full" });
    expect(await rowsOf("no_queue_drop")).toBe(2);
    expect(seen.count("episode.dropped")).toEqual({ bus: 1, telemetry: 1 });
    expect(seen.count("actor.overflow")).toEqual({ bus: 1, telemetry: 1 });
    expect(seen.count("episode.queued")).toEqual({ bus: 0, telemetry: 0 });
    expect(seen.topics.find((event) => event.topic === "actor.overflow")?.payload).toMatchObject({
      actor_id: "no_queue_drop",
      policy: "drop",
      max_queued: 0,
    });

    // A slot freed: the next fire runs again.
    await settled(short);
    const again = await host.fire({
      actorId: "no_queue_drop",
      expectationId: "run",
      triggerType: "manual",
      input: { steps: 1 },
    });
    expect(again.kind).toBe("created");
    expect(seen.count("episode.dropped")).toEqual({ bus: 1, telemetry: 1 });
  });

  it("shed_oldest: nothing waits to be shed and running episodes are never shed, so the fire is dropped", async () => {
    const seen = recordTopics();
    const { host } = startHost([noQueue("no_queue_shed", "shed_oldest")], {
      bus: seen.bus,
      telemetry: seen.telemetry,
    });
    const long = { steps: 0, stepMs: 50 };
    const first = await fired(host, "no_queue_shed", long);
    const second = await fired(host, "no_queue_shed", long);
    await expect(
      host.fire({ actorId: "no_queue_shed", expectationId: "run", triggerType: "manual" }),
    ).resolves.toEqual({ kind: "dropped", actorId: "no_queue_shed", reason: "queue_full" });
    expect(await rowsOf("no_queue_shed")).toBe(2);
    // Still running, not cancelled to make room.
    await expect.poll(async () => (await episode(first)).status).toBe("running");
    await expect.poll(async () => (await episode(second)).status).toBe("running");
    expect(seen.count("episode.dropped")).toEqual({ bus: 1, telemetry: 1 });
    expect(seen.topics.find((event) => event.topic === "actor.overflow")?.payload).toMatchObject({
      policy: "shed_oldest",
      max_queued: 0,
    });
  });
});
