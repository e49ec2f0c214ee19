import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ActorRegistry,
  circuitBreakerOf,
  defineActor,
  fail,
  readCircuitBreakerState,
  StrategyRegistry,
  type Strategy,
} from "../actors/index";
import { ALL_TOPICS, MemoryBus, type BusEvent } from "../bus/index";
import { PostgresWorkClaims } from "../claims/index";
import { ModeController } from "../modes/index";
import { ActorHost } from "../runtime/index";
import { silentLogger, Telemetry, type TelemetryEvent } from "../telemetry/index";
import { ExpectationTriggers } from "./expectation-triggers";

// Issue 20: the circuit breaker guards a schedule (cron) expectation too, with Cyclium's
// defaults unless configured. Two nodes run the same cron turns on one bus; the turns read a
// clock that a test moves to 300 ms before a minute boundary, so each cron window fires right
// after a phase starts instead of once a minute.
let db: TestDatabase;
const bus = new MemoryBus();
const telemetry = new Telemetry();
const emitted: TelemetryEvent[] = [];
const published: BusEvent[] = [];
const hosts: ActorHost[] = [];
let offsetMs = 0;
const now = () => Date.now() + offsetMs;

const alwaysFails: Strategy<unknown, unknown> = {
  init: (_ctx, input) => input,
  step: () => fail("test_failure", "the cron job is broken"),
};

// Long enough for two rejected windows (each phase takes about 1.5 s) before it half-opens.
const HALF_OPEN_MS = 6_000;
const actors = [
  defineActor({
    identifier: "cron_flaky",
    expectations: [
      {
        id: "tick",
        strategy: alwaysFails,
        // threshold left out: Cyclium's default (5) applies.
        trigger: { schedule: "* * * * *", circuitBreaker: { halfOpenAfterMs: HALF_OPEN_MS } },
      },
    ],
  }),
];
const registry = new ActorRegistry({ actors, strategies: new StrategyRegistry({}) });

function startHost(index: number): { host: ActorHost; modes: ModeController; id: string } {
  const nodeIdentity = `breaker-node-${index}`;
  const modes = new ModeController({ nodeIdentity, baseMode: "full" });
  const host = new ActorHost({
    nodeIdentity,
    stack: null,
    env: null,
    logger: silentLogger,
    telemetry,
    db: db.pool,
    registry,
    modes,
    claims: new PostgresWorkClaims({ db: db.pool, telemetry }),
    leaseSeconds: 30,
    jitterMs: 0,
  });
  host.start();
  hosts.push(host);
  return { host, modes, id: nodeIdentity };
}

let nodes: ReturnType<typeof startHost>[] = [];

/** Runs both nodes' triggers through the next cron window (300 ms away on the moved clock). */
async function nextWindow(): Promise<Date> {
  const minute = 60_000;
  const boundary = (Math.floor((Date.now() + offsetMs) / minute) + 1) * minute;
  offsetMs = boundary - 300 - Date.now();
  const triggers = nodes.map(
    ({ host, modes, id }) =>
      new ExpectationTriggers({
        registry,
        host,
        bus,
        modes,
        db: db.pool,
        stack: null,
        env: null,
        nodeIdentity: id,
        telemetry,
        logger: silentLogger,
        now,
      }),
  );
  for (const trigger of triggers) trigger.start();
  // Past the window on the moved clock, plus time for both nodes' fires to be decided.
  await vi.waitFor(() => expect(now()).toBeGreaterThan(boundary + 1_000), {
    timeout: 5_000,
    interval: 50,
  });
  for (const trigger of triggers) trigger.stop();
  return new Date(boundary);
}

async function episodes(): Promise<{ status: string; scheduled: string }[]> {
  const { rows } = await db.pool.query<{ status: string; scheduled: string }>(
    `SELECT status, input->>'scheduledAt' AS scheduled FROM cyclium_episodes
      WHERE actor_id = 'cron_flaky' ORDER BY inserted_at`,
  );
  return rows;
}

async function allFinished(count: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const rows = await episodes();
      expect(rows).toHaveLength(count);
      expect(rows.every((row) => row.status === "failed")).toBe(true);
    },
    { timeout: 10_000, interval: 25 },
  );
}

const rejected = () => ({
  bus: published.filter((event) => event.topic === "circuit_breaker.rejected").length,
  telemetry: emitted.filter((event) => event.name === "cyclium.circuit_breaker.rejected").length,
});

const breakerState = () =>
  readCircuitBreakerState(
    {
      actorId: "cron_flaky",
      expectationId: "tick",
      env: null,
      threshold: 5,
      halfOpenAfterMs: HALF_OPEN_MS,
    },
    db.pool,
  );

beforeAll(async () => {
  db = await createTestDatabase();
  telemetry.subscribe((event) => emitted.push(event));
  bus.subscribe(ALL_TOPICS, (event) => void published.push(event));
  nodes = [startHost(0), startHost(1)];
});

afterAll(async () => {
  await Promise.all(hosts.map((host) => host.stop({ graceMs: 0 })));
  await db.drop();
});

describe("circuit breaker on a cron expectation (issue 20)", () => {
  it("defaults to 5 failures and 60 s for every trigger kind but manual", () => {
    expect(circuitBreakerOf({ schedule: "* * * * *" } as never)).toEqual({
      threshold: 5,
      halfOpenAfterMs: 60_000,
    });
    expect(circuitBreakerOf({ poll: () => true, intervalMs: 100 } as never)).toEqual({
      threshold: 5,
      halfOpenAfterMs: 60_000,
    });
    expect(circuitBreakerOf({ circuitBreaker: false })).toBeNull();
    expect(circuitBreakerOf({ manual: true })).toBeNull();
    expect(actors[0]!.expectations[0]!.trigger).toMatchObject({
      circuitBreaker: { threshold: 5, halfOpenAfterMs: HALF_OPEN_MS },
    });
  });

  it("opens after five failed windows, rejects the next once per window, half-opens after the cooldown", async () => {
    for (let i = 1; i <= 5; i++) {
      await nextWindow();
      await allFinished(i);
    }
    expect(rejected()).toEqual({ bus: 0, telemetry: 0 });
    expect(await breakerState()).toMatchObject({ state: "open", allowsFire: false });

    // Open: the window fires on both nodes, neither creates an episode, one rejection is told.
    const refused = await nextWindow();
    expect(await episodes()).toHaveLength(5);
    await vi.waitFor(() => expect(rejected()).toEqual({ bus: 1, telemetry: 1 }));
    const event = published.find((e) => e.topic === "circuit_breaker.rejected");
    expect(event?.payload).toMatchObject({
      actor_id: "cron_flaky",
      expectation_id: "tick",
      trigger_type: "schedule",
      state: "open",
    });
    expect(String((event?.payload as { dedupe_key: string }).dedupe_key)).toContain(
      refused.toISOString().slice(0, 16),
    );
    expect(emitted.some((e) => e.name === "cyclium.circuit_breaker.opened")).toBe(true);

    // Still open for the next window: another single rejection.
    await nextWindow();
    expect(await episodes()).toHaveLength(5);
    await vi.waitFor(() => expect(rejected()).toEqual({ bus: 2, telemetry: 2 }));

    // After halfOpenAfterMs one trial window passes; its failure opens the breaker again.
    await vi.waitFor(async () => expect((await breakerState()).state).toBe("half_open"), {
      timeout: HALF_OPEN_MS + 3_000,
      interval: 50,
    });
    await nextWindow();
    await allFinished(6);
    expect(await breakerState()).toMatchObject({ state: "open" });
    await nextWindow();
    expect(await episodes()).toHaveLength(6);
    await vi.waitFor(() => expect(rejected()).toEqual({ bus: 3, telemetry: 3 }));
  }, 90_000);
});
