import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ActorRegistry,
  defineActor,
  done,
  next,
  StrategyRegistry,
  type Strategy,
} from "../actors/index";
import { PostgresWorkClaims, type WorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import { createEpisode } from "../episodes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { LocalRunner } from "./local-runner";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** Two steps of 150 ms: the heartbeat (lease 0.3 s, renew every 100 ms) renews meanwhile. */
const twoSteps: Strategy<unknown, number> = {
  init: () => 0,
  step: async (count) => {
    await sleep(150);
    return count + 1 >= 2 ? done({ steps: count + 1 }) : next(count + 1);
  },
};

describe("LocalRunner and the claim heartbeat", () => {
  it("stops renewing before the statement that ends the episode and releases its claim", async () => {
    // Found by the fault suite: a renew that reached the database right after the end statement
    // found the claim `done` and reported it lost (renew_failed, lease_lost) for an episode that
    // had completed. Here the end statement is held for longer than a renew interval: a heartbeat
    // still running then sends a renew while it is in flight.
    let endSentAt: number | undefined;
    const delayingPool: Queryable & Connectable = {
      query: async (text: string, params?: unknown[]) => {
        const ending =
          text.includes("INSERT INTO cyclium_episode_steps") &&
          text.includes("UPDATE cyclium_work_claims");
        if (ending) {
          endSentAt ??= performance.now();
          await sleep(400);
        }
        return db.pool.query(text, params);
      },
      connect: () => db.pool.connect(),
    } as Queryable & Connectable;
    const telemetry = new Telemetry();
    const inner = new PostgresWorkClaims({ db: delayingPool, telemetry });
    const renewsAt: number[] = [];
    const claims: WorkClaims = {
      kind: "postgres",
      acquire: (options, tx) => inner.acquire(options, tx),
      renew: (options, tx) => {
        renewsAt.push(performance.now());
        return inner.renew(options, tx);
      },
      complete: (options, tx) => inner.complete(options, tx),
      fail: (options, tx) => inner.fail(options, tx),
      reclaimExpired: (options, tx) => inner.reclaimExpired(options, tx),
    };
    const actor = defineActor({
      identifier: "a",
      expectations: [{ id: "run", strategy: "two", trigger: { manual: true } }],
    });
    const runner = new LocalRunner({
      db: delayingPool,
      claims,
      leaseSeconds: 0.3,
      nodeIdentity: "hb-node",
      registry: new ActorRegistry({
        actors: [actor],
        strategies: new StrategyRegistry({ two: twoSteps }),
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
    if (!created.created) throw new Error("episode not created");

    const result = await runner.run(created.episode);

    expect(result.status).toBe("completed");
    expect(renewsAt.length).toBeGreaterThan(0);
    expect(endSentAt).toBeDefined();
    expect(renewsAt.filter((at) => at > (endSentAt ?? 0))).toEqual([]);
  });
});
