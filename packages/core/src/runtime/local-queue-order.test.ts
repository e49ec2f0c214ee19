import { describe, expect, it } from "vitest";
import type { Episode } from "../episodes/index";
import { ActorQueue, type QueuedEpisode } from "./actor-queue";
import { nextInPriorityOrder } from "./local-queue-order";

const AGEING = 30_000;

describe("nextInPriorityOrder", () => {
  it("takes the highest priority first, and the oldest within one priority", () => {
    const entries = [
      { priority: 0, queuedAt: 0 },
      { priority: 5, queuedAt: 10 },
      { priority: 5, queuedAt: 20 },
      { priority: 1, queuedAt: 30 },
    ];
    expect(nextInPriorityOrder(entries, 100, AGEING)).toBe(1);
    expect(nextInPriorityOrder([], 100, AGEING)).toBe(-1);
  });

  it("raises a waiting entry one level per ageing period, up to 10, as the database does", () => {
    // Priority 0 for 3 periods counts as 3: ahead of a 2 that just arrived, behind a 4.
    const old = { priority: 0, queuedAt: 0 };
    const now = 3 * AGEING + 1;
    expect(nextInPriorityOrder([old, { priority: 2, queuedAt: now }], now, AGEING)).toBe(0);
    expect(nextInPriorityOrder([old, { priority: 4, queuedAt: now }], now, AGEING)).toBe(1);
    // Capped at 10: after 10 periods it ties with a fresh 10, and the older one goes first.
    const starved = { priority: 0, queuedAt: 0 };
    const later = 60 * AGEING;
    expect(nextInPriorityOrder([starved, { priority: 10, queuedAt: later }], later, AGEING)).toBe(
      0,
    );
  });
});

describe("ActorQueue", () => {
  function entry(id: string, priority: number): QueuedEpisode {
    return {
      episode: { id, actorId: "a" } as Episode,
      owned: true,
      recovered: false,
      resume: undefined,
      triggerRequestId: undefined,
      priority,
      settle: () => undefined,
    };
  }

  it("gives a freed slot to the highest priority waiting, FIFO within one priority", () => {
    let now = 0;
    const queue = new ActorQueue(() => now);
    for (const [id, priority] of [
      ["a0", 0],
      ["b5", 5],
      ["c0", 0],
      ["d5", 5],
      ["e9", 9],
    ] as const) {
      queue.push(entry(id, priority));
      now += 1;
    }
    const order: string[] = [];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      order.push(next.episode.id);
    }
    expect(order).toEqual(["e9", "b5", "d5", "a0", "c0"]);
  });

  it("lets an old low-priority episode through a stream of higher ones (ageing)", () => {
    let now = 0;
    const queue = new ActorQueue(() => now);
    queue.push(entry("low", 0));
    queue.push(entry("high-1", 3));
    expect(queue.shift()?.episode.id).toBe("high-1");
    now = 4 * AGEING;
    queue.push(entry("high-2", 3));
    // Waited four periods: 0 + 4 > 3.
    expect(queue.shift()?.episode.id).toBe("low");
    expect(queue.shift()?.episode.id).toBe("high-2");
  });
});
