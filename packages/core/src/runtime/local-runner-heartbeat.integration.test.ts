import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActorRegistry, defineActor, done, StrategyRegistry, type Strategy } from "../actors/index";
import { PostgresWorkClaims, type WorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import { createEpisode } from "../episodes/index";
import { silentLogger, Telemetry, type TelemetryEvent } from "../telemetry/index";
import { LocalRunner } from "./local-runner";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** Resolves when the next renew is sent; the strategy ends right then, with the renew in flight. */
let renewStarted: Promise<void> = Promise.resolve();
let markRenewStarted: () => void = () => undefined;

const endsDuringARenew: Strategy<unknown, null> = {
  init: () => null,
  step: async () => {
    await renewStarted;
    return done({ ok: true });
  },
};

describe("LocalRunner and the claim heartbeat", () => {
  it("lets a renew in flight finish, then stops renewing, before the end statement releases the claim", async () => {
    // Found by the fault suite: a renew that reached the database right after the end statement
    // found the claim `done` and was reported as failed (renew_failed, lease_lost) for an episode
    // that had completed. Here each renew takes 250 ms and the episode ends while one is in flight.
    let endSentAt: number | undefined;
    const pool: Queryable & Connectable = {
      query: (text: string, params?: unknown[]) => {
        if (
          text.includes("INSERT INTO cyclium_episode_steps") &&
          text.includes("UPDATE cyclium_work_claims")
        ) {
          endSentAt ??= performance.now();
        }
        return db.pool.query(text, params);
      },
      connect: () => db.pool.connect(),
    } as Queryable & Connectable;
    const telemetry = new Telemetry();
    const failedRenewals: TelemetryEvent[] = [];
    telemetry.subscribe((event) => failedRenewals.push(event), {
      events: ["cyclium.work_claims.renew_failed"],
    });
    const inner = new PostgresWorkClaims({ db: pool, telemetry });
    const renewsDoneAt: number[] = [];
    renewStarted = new Promise((resolve) => (markRenewStarted = resolve));
    const claims: WorkClaims = {
      usesSqlFence: true,
      acquire: (options, tx) => inner.acquire(options, tx),
      renew: async (options, tx) => {
        markRenewStarted();
        await sleep(250);
        const result = await inner.renew(options, tx);
        renewsDoneAt.push(performance.now());
        return result;
      },
      complete: (options, tx) => inner.complete(options, tx),
      fail: (options, tx) => inner.fail(options, tx),
      reclaimExpired: (options, tx) => inner.reclaimExpired(options, tx),
      holds: (fence, tx) => inner.holds(fence, tx),
    };
    const actor = defineActor({
      identifier: "a",
      expectations: [{ id: "run", strategy: "ends", trigger: { manual: true } }],
    });
    const runner = new LocalRunner({
      db: pool,
      claims,
      // Renewals every 500 ms, each answered after 250 ms: well inside the lease.
      leaseSeconds: 1.5,
      nodeIdentity: "hb-node",
      registry: new ActorRegistry({
        actors: [actor],
        strategies: new StrategyRegistry({ ends: endsDuringARenew }),
      }),
      logger: silentLogger,
      telemetry,
      hardStop: new AbortController().signal,
      isDraining: () => false,
    });
    const created = await createEpisode(
      {
        actorId: "a",
        expectationId: "run",
        triggerType: "manual",
        dedupeKey: "manual:a:run:hb",
        status: "pending",
        sourceNode: "hb-node",
        sourceStack: null,
        sourceEnv: null,
        jitterMs: 0,
        logger: silentLogger,
        telemetry,
      },
      db.pool,
    );
    if (created.kind !== "created") throw new Error("episode not created");

    const result = await runner.run(created.episode);
    await sleep(300);

    expect(result.kind).toBe("completed");
    expect(endSentAt).toBeDefined();
    expect(renewsDoneAt).toHaveLength(1);
    expect(renewsDoneAt.every((at) => at < (endSentAt ?? 0))).toBe(true);
    expect(failedRenewals).toEqual([]);
  });
});
