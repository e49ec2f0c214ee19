import { describe, expect, it, vi } from "vitest";
import { createEpisode } from "../episodes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { useHostSuite } from "./testing/host-suite";
import { stepsStrategy } from "./testing/index";

// SPEC 12: recovered episodes are never dropped or shed, even from a full shed_oldest queue.
const { db, startHost, actor, episode, fired, settled } = useHostSuite();

describe("episodeOverflow and recovered episodes", () => {
  it("a recovered episode is never shed: the newer fire's predecessor goes instead", async () => {
    const bounded = actor("bounded", stepsStrategy, {
      maxConcurrentEpisodes: 1,
      maxQueuedEpisodes: 1,
      episodeOverflow: "shed_oldest",
    });
    const { host, nodeIdentity } = startHost([bounded]);
    const running = await fired(host, "bounded", { steps: 0, stepMs: 50 });
    // A restarted orphan, handed over by recovery while the queue is already at its limit.
    const created = await createEpisode(
      {
        actorId: "bounded",
        expectationId: "run",
        triggerType: "manual",
        dedupeKey: null,
        input: { steps: 1 },
        status: "pending",
        sourceNode: nodeIdentity,
        sourceStack: null,
        sourceEnv: null,
        jitterMs: 0,
        logger: silentLogger,
        telemetry: new Telemetry(),
      },
      db.pool,
    );
    if (created.kind !== "created") throw new Error("not created");
    const recovered = created.episode.id;
    const queuedFirst = await fired(host, "bounded");
    expect(await host.enqueueEpisode(recovered, { recovered: true })).toMatchObject({
      kind: "queued",
    });
    const newest = await fired(host, "bounded");

    expect(await settled(queuedFirst)).toMatchObject({ status: "cancelled", error_class: "shed" });
    expect((await episode(recovered)).status).toBe("pending");
    expect((await episode(newest)).status).toBe("pending");
    // It holds the one slot from the moment it was queued; its start statement may still be on
    // its way on a loaded machine (seen in a CI check), so wait for it rather than race it.
    await vi.waitFor(async () => expect((await episode(running)).status).toBe("running"), {
      timeout: 15_000,
      interval: 50,
    });
  });
});
