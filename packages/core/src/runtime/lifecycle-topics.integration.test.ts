import { describe, expect, it } from "vitest";
import { useHostSuite } from "./testing/host-suite";
import { recordTopics } from "./testing/topic-recorder";
import { stepsStrategy } from "./testing/index";

const { startHost, actor, fired } = useHostSuite();

describe("lifecycle topics (issue 20)", () => {
  it("announces triggered, queued, overflow and dropped once per occurrence", async () => {
    const seen = recordTopics();
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
