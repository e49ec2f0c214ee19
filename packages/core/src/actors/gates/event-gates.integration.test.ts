import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryBus } from "../../bus/index";
import { PostgresWorkClaims } from "../../claims/index";
import { ModeController } from "../../modes/index";
import { ExpectationTriggers } from "../../nodes/expectation-triggers";
import { ActorHost } from "../../runtime/index";
import { silentLogger, Telemetry, type TelemetryEvent } from "../../telemetry/index";
import { ActorRegistry } from "../actor-registry";
import { defineActor } from "../define-actor";
import { StrategyRegistry } from "../strategy-registry";
import { done, fail, type Strategy } from "../strategy";
import { readCircuitBreakerState } from "./circuit-breaker";

// SPEC 12 acceptance for the event gates, on two nodes that see the same events (one bus).
let db: TestDatabase;
const bus = new MemoryBus();
const telemetry = new Telemetry();
const emitted: TelemetryEvent[] = [];
const stops: (() => Promise<void>)[] = [];
const hosts: ActorHost[] = [];

const oneStep: Strategy<unknown, unknown> = {
  init: (_ctx, input) => input,
  step: (state) =>
    typeof state === "object" && state !== null && "fail" in state && state.fail === true
      ? fail("test_failure", "asked to fail")
      : done({ ok: true }),
};

const actors = [
  defineActor({
    identifier: "debounced",
    expectations: [
      {
        id: "on_update",
        strategy: oneStep,
        trigger: {
          event: "resource.updated",
          filter: { kind: { in: ["cpu", "mem"] } },
          subjectKey: "resource",
          debounceMs: 300,
          cooldownMs: 60_000,
        },
      },
    ],
  }),
  defineActor({
    identifier: "flaky",
    expectations: [
      {
        id: "on_run",
        strategy: oneStep,
        trigger: { event: "flaky.run", circuitBreaker: { threshold: 5, halfOpenAfterMs: 1_500 } },
      },
    ],
  }),
];

function startNode(index: number): void {
  const nodeIdentity = `gates-node-${index}`;
  const registry = new ActorRegistry({ actors, strategies: new StrategyRegistry({}) });
  const modes = new ModeController({ nodeIdentity, baseMode: "full" });
  const common = { nodeIdentity, stack: null, env: null, logger: silentLogger, telemetry };
  const host = new ActorHost({
    ...common,
    db: db.pool,
    registry,
    modes,
    claims: new PostgresWorkClaims({ db: db.pool, telemetry }),
    leaseSeconds: 30,
    jitterMs: 0,
  });
  host.start();
  hosts.push(host);
  const triggers = new ExpectationTriggers({ ...common, registry, host, bus, modes, db: db.pool });
  triggers.start();
  stops.push(async () => {
    triggers.stop();
    await host.stop({ graceMs: 0 });
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  telemetry.subscribe((event) => emitted.push(event));
  startNode(0);
  startNode(1);
});

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  await db.drop();
});

async function episodes(
  actorId: string,
): Promise<{ input: Record<string, unknown>; status: string }[]> {
  const { rows } = await db.pool.query<{ input: Record<string, unknown>; status: string }>(
    `SELECT input, status FROM cyclium_episodes WHERE actor_id = $1 ORDER BY inserted_at`,
    [actorId],
  );
  return rows;
}

const forSubject = (rows: { input: Record<string, unknown> }[], resource: string) =>
  rows.filter((row) => row.input.resource === resource);

describe("event gates", () => {
  it("debounce keeps the last of a burst, cooldown swallows the next burst, per subject", async () => {
    for (let i = 0; i < 20; i++) {
      await bus.publish("resource.updated", { resource: "a", kind: "cpu", value: i });
    }
    await bus.publish("resource.updated", { resource: "b", kind: "mem", value: 0 });
    await bus.publish("resource.updated", { resource: "c", kind: "disk", value: 0 });
    await vi.waitFor(async () => expect(await episodes("debounced")).toHaveLength(2), {
      timeout: 10_000,
      interval: 25,
    });
    const first = await episodes("debounced");
    expect(forSubject(first, "a").map((row) => row.input.value)).toEqual([19]);
    expect(forSubject(first, "b")).toHaveLength(1);

    // Second burst for `a` inside its cooldown; `d` (new subject) published after it is the
    // marker: once its episode exists, a's debounce has been released (and gated) too.
    for (let i = 0; i < 20; i++) {
      await bus.publish("resource.updated", { resource: "a", kind: "cpu", value: 100 + i });
    }
    await bus.publish("resource.updated", { resource: "d", kind: "cpu", value: 0 });
    await vi.waitFor(
      async () => expect(forSubject(await episodes("debounced"), "d")).toHaveLength(1),
      { timeout: 10_000, interval: 25 },
    );
    const after = await episodes("debounced");
    expect(forSubject(after, "a")).toHaveLength(1);
    expect(forSubject(after, "c")).toEqual([]);
  });

  it("five consecutive failures open the breaker; after halfOpenAfterMs fires pass again", async () => {
    const finished = async (n: number): Promise<void> => {
      await vi.waitFor(
        async () => {
          const rows = await episodes("flaky");
          expect(
            rows.filter((row) => row.status !== "pending" && row.status !== "running"),
          ).toHaveLength(n);
        },
        { timeout: 10_000, interval: 25 },
      );
    };
    for (let i = 1; i <= 5; i++) {
      await bus.publish("flaky.run", { fail: true, n: i });
      await finished(i);
    }
    await bus.publish("flaky.run", { fail: false, n: 6 });
    await vi.waitFor(() =>
      expect(emitted.some((e) => e.name === "cyclium.circuit_breaker.opened")).toBe(true),
    );
    expect(await episodes("flaky")).toHaveLength(5);
    // Both nodes refused event 6; one of them announced it (issue 20: once per occurrence).
    const rejections = () => emitted.filter((e) => e.name === "cyclium.circuit_breaker.rejected");
    await vi.waitFor(() => expect(rejections()).toHaveLength(1));
    expect(rejections()[0]?.metadata).toMatchObject({ trigger_type: "event", state: "open" });
    const config = { actorId: "flaky", expectationId: "on_run", env: null, threshold: 5 };
    const open = await readCircuitBreakerState({ ...config, halfOpenAfterMs: 1_500 }, db.pool);
    expect(open).toMatchObject({ state: "open", consecutiveFailures: 5, allowsFire: false });
    // A manual fire bypasses the breaker (it fails too, so the breaker stays open).
    const manual = await hosts[0]!.fire({
      actorId: "flaky",
      expectationId: "on_run",
      triggerType: "manual",
      input: { fail: true, n: "manual" },
    });
    expect(manual).toMatchObject({ deferred: false });
    await finished(6);

    await vi.waitFor(
      async () =>
        expect(
          (await readCircuitBreakerState({ ...config, halfOpenAfterMs: 1_500 }, db.pool)).state,
        ).toBe("half_open"),
      { timeout: 5_000, interval: 50 },
    );
    await bus.publish("flaky.run", { fail: false, n: 7 });
    await finished(7);
    expect((await episodes("flaky")).at(-1)).toMatchObject({ status: "completed" });
    await bus.publish("flaky.run", { fail: false, n: 8 });
    await finished(8);
    expect(emitted.some((e) => e.name === "cyclium.circuit_breaker.half_open")).toBe(true);
    expect(emitted.some((e) => e.name === "cyclium.circuit_breaker.closed")).toBe(true);
    expect(rejections()).toHaveLength(1);
  });
});
