import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ActorRegistry, defineActor, StrategyRegistry, done, type Strategy } from "../actors/index";
import { PostgresWorkClaims } from "../claims/index";
import { createEpisode } from "../episodes/index";
import { ModeController } from "../modes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { ActorHost } from "./actor-host";

let db: TestDatabase;
const hosts: ActorHost[] = [];
/** Episodes of the `gated` strategy wait here until the test opens them. */
const gates = new Map<string, () => void>();

const gated: Strategy<unknown, null> = {
  init: () => null,
  step: async (_state, ctx) => {
    await new Promise<void>((resolve) => gates.set(ctx.episode.id, resolve));
    return done();
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  for (const open of gates.values()) open();
  await Promise.all(hosts.splice(0).map((host) => host.stop({ graceMs: 1_000 })));
});
afterAll(async () => {
  await db.drop();
});

function startHost(requestPrefetch: number, extra: { maxQueuedEpisodes?: number } = {}) {
  const telemetry = new Telemetry();
  const nodeIdentity = `prefetch-${hosts.length}`;
  const actor = defineActor({
    identifier: "a",
    maxConcurrentEpisodes: 2,
    ...extra,
    expectations: [{ id: "run", strategy: "gated", trigger: { manual: true } }],
  });
  const host = new ActorHost({
    db: db.pool,
    registry: new ActorRegistry({
      actors: [actor],
      strategies: new StrategyRegistry({ gated }),
    }),
    modes: new ModeController({ nodeIdentity, baseMode: "full" }),
    claims: new PostgresWorkClaims({ db: db.pool, telemetry }),
    leaseSeconds: 30,
    nodeIdentity,
    stack: null,
    env: null,
    requestPrefetch,
    logger: silentLogger,
    telemetry,
  });
  host.start();
  hosts.push(host);
  return host;
}

async function dispatch(host: ActorHost, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const created = await createEpisode(
      {
        actorId: "a",
        expectationId: "run",
        triggerType: "manual",
        dedupeKey: null,
        sourceNode: "console",
        sourceStack: null,
        sourceEnv: null,
        jitterMs: 0,
      },
      db.pool,
    );
    if (created.kind !== "created") throw new Error("not created");
    const dispatched = host.dispatch(created.episode, { triggerRequestId: String(i + 1) });
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
