import { describe, expect, it } from "vitest";
import { dropsArrival, freeCapacity, queueFull } from "./actor-capacity";

describe("queueFull", () => {
  it("is never full without maxQueuedEpisodes", () => {
    expect(queueFull({ maxQueuedEpisodes: undefined }, { slots: 1, running: 1, queued: 99 })).toBe(
      false,
    );
  });

  it("is full once the queue holds its bound and every slot is busy", () => {
    const actor = { maxQueuedEpisodes: 2 };
    expect(queueFull(actor, { slots: 2, running: 2, queued: 1 })).toBe(false);
    expect(queueFull(actor, { slots: 2, running: 2, queued: 2 })).toBe(true);
  });

  it("without a queue, a free slot still takes the episode", () => {
    const actor = { maxQueuedEpisodes: 0 };
    expect(queueFull(actor, { slots: 2, running: 1, queued: 0 })).toBe(false);
    expect(queueFull(actor, { slots: 2, running: 2, queued: 0 })).toBe(true);
  });
});

describe("dropsArrival", () => {
  it("drops under drop, and under shed_oldest only when nothing waits to be shed", () => {
    expect(dropsArrival({ episodeOverflow: "drop", maxQueuedEpisodes: 5 })).toBe(true);
    expect(dropsArrival({ episodeOverflow: "shed_oldest", maxQueuedEpisodes: 5 })).toBe(false);
    expect(dropsArrival({ episodeOverflow: "shed_oldest", maxQueuedEpisodes: 0 })).toBe(true);
    expect(dropsArrival({ episodeOverflow: "queue", maxQueuedEpisodes: undefined })).toBe(false);
  });
});

describe("freeCapacity", () => {
  const unbounded = { maxQueuedEpisodes: undefined };

  it("without prefetch: the free slots", () => {
    expect(freeCapacity(unbounded, { slots: 4, running: 1, queued: 0 }, 0)).toBe(3);
    expect(freeCapacity(unbounded, { slots: 4, running: 4, queued: 0 }, 0)).toBe(0);
  });

  it("with prefetch: free slots plus room to queue, claimed in waves of min(prefetch, slots)", () => {
    expect(freeCapacity(unbounded, { slots: 4, running: 4, queued: 0 }, 8)).toBe(8);
    // 3 of room is less than a wave of 4: wait for more.
    expect(freeCapacity(unbounded, { slots: 4, running: 4, queued: 5 }, 8)).toBe(0);
    expect(freeCapacity(unbounded, { slots: 4, running: 0, queued: 5 }, 8)).toBe(7);
  });

  it("never past maxQueuedEpisodes", () => {
    expect(freeCapacity({ maxQueuedEpisodes: 2 }, { slots: 4, running: 4, queued: 0 }, 8)).toBe(0);
    expect(freeCapacity({ maxQueuedEpisodes: 2 }, { slots: 4, running: 0, queued: 0 }, 2)).toBe(6);
  });
});
