import { afterEach, describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import type { ActorHost } from "./index";
import { useHostSuite } from "./testing/host-suite";
import { createManualEpisode } from "../episodes/testing/index";

/** Episodes of the `gated` strategy wait here until the test opens them. */
const gates = new Map<string, () => void>();

const gated: Strategy<unknown, null> = {
  init: () => null,
  step: async (_state, ctx) => {
    await new Promise<void>((resolve) => gates.set(ctx.episode.id, resolve));
    return done();
  },
};

const suite = useHostSuite({ stopGraceMs: 1_000 });
const { db } = suite;
// Runs before the suite stops the hosts, so the gated steps end instead of waiting out the grace.
afterEach(() => {
  for (const open of gates.values()) open();
});

function startHost(requestPrefetch: number, extra: { maxQueuedEpisodes?: number } = {}) {
  const actor = suite.actor("a", gated, { maxConcurrentEpisodes: 2, ...extra });
  return suite.startHost([actor], { requestPrefetch }).host;
}

async function dispatch(host: ActorHost, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const episode = await createManualEpisode(db.pool);
    const dispatched = host.dispatch(episode, { triggerRequestId: String(i + 1) });
    if (dispatched.kind !== "queued") throw new Error(dispatched.kind);
  }
}

/** Opens `count` running episodes' gates and waits until their slots were taken again. */
async function finish(host: ActorHost, count: number): Promise<void> {
  await vi.waitFor(() => expect(gates.size).toBeGreaterThanOrEqual(count));
  const opened = [...gates.entries()].slice(0, count);
  for (const [id, open] of opened) {
    gates.delete(id);
    open();
  }
  await vi.waitFor(() => expect(host.runningCount("a") + host.queuedCount("a")).toBeLessThan(6));
}

describe("requestPrefetch", () => {
  it("claims only free slots without it", async () => {
    const host = startHost(0);
    expect(host.freeCapacity("a")).toBe(2);
    await dispatch(host, 1);
    expect(host.freeCapacity("a")).toBe(1);
  });

  it("lets the poller claim ahead of the free slots, and refill only in whole waves", async () => {
    const host = startHost(4);
    expect(host.freeCapacity("a")).toBe(6);
    await dispatch(host, 6);
    await vi.waitFor(() => expect(host.runningCount("a")).toBe(2));
    expect(host.queuedCount("a")).toBe(4);
    expect(host.freeCapacity("a")).toBe(0);
    await finish(host, 1);
    // One freed slot is below a wave of min(prefetch, slots) = 2: no claim for it alone.
    await vi.waitFor(() => expect(host.queuedCount("a")).toBe(3));
    expect(host.freeCapacity("a")).toBe(0);
    await finish(host, 1);
    await vi.waitFor(() => expect(host.queuedCount("a")).toBe(2));
    expect(host.freeCapacity("a")).toBe(2);
  });

  it("never claims past maxQueuedEpisodes", () => {
    const host = startHost(10, { maxQueuedEpisodes: 3 });
    expect(host.freeCapacity("a")).toBe(5);
  });
});
