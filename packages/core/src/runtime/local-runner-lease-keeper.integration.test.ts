import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActorRegistry, defineActor, done, StrategyRegistry, type Strategy } from "../actors/index";
import { PostgresWorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import { createEpisode, type Episode } from "../episodes/index";
import { checkFence } from "../claims/check-fence";
import { stealEpisodeLeases } from "../episodes/lease/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { LocalRunner } from "./local-runner";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error("condition not met in time");
    await sleep(25);
  }
}

/** The strategy runs until the test lets it finish; it sees its claim's abort through ctx.signal. */
let letFinish: () => void = () => undefined;
const finish = new Promise<void>((resolve) => (letFinish = resolve));
const abortedSeen = new Set<string>();
const waits: Strategy<unknown, null> = {
  init: () => null,
  step: async (_state, ctx) => {
    ctx.signal.addEventListener("abort", () => abortedSeen.add(ctx.episode.id));
    await finish;
    return done({ ok: true });
  },
};

describe("LocalRunner and the node's lease keeper", () => {
  it("renews the claims of all running episodes with one statement per tick; a stolen claim stops only its episode", async () => {
    const renewals: unknown[][] = [];
    const pool: Queryable & Connectable = {
      query: (text: string, params?: unknown[]) => {
        if (text.includes("SET lease_until = now()")) renewals.push(params ?? []);
        return db.pool.query(text, params);
      },
      connect: () => db.pool.connect(),
    } as Queryable & Connectable;
    const telemetry = new Telemetry();
    const actor = defineActor({
      identifier: "keeper-actor",
      expectations: [{ id: "run", strategy: "waits", trigger: { manual: true } }],
    });
    const runner = new LocalRunner({
      db: pool,
      claims: new PostgresWorkClaims({ db: pool, telemetry, episodeLeases: "claim_rows" }),
      // A tick every second; 3 s of lease leave room for a loaded machine.
      leaseSeconds: 3,
      nodeIdentity: "keeper-node",
      registry: new ActorRegistry({
        actors: [actor],
        strategies: new StrategyRegistry({ waits }),
      }),
      logger: silentLogger,
      telemetry,
      hardStop: new AbortController().signal,
      isDraining: () => false,
    });
    const episodes: Episode[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await createEpisode(
        {
          actorId: "keeper-actor",
          expectationId: "run",
          triggerType: "manual",
          dedupeKey: `manual:keeper-actor:run:${i}`,
          status: "pending",
          sourceNode: "keeper-node",
          sourceStack: null,
          sourceEnv: null,
          jitterMs: 0,
          logger: silentLogger,
          telemetry,
        },
        db.pool,
      );
      if (created.kind !== "created") throw new Error("episode not created");
      episodes.push(created.episode);
    }
    const runs = episodes.map((episode) => runner.run(episode));
    const running = async (): Promise<number> => {
      const { rows } = await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM cyclium_episodes WHERE actor_id = 'keeper-actor' AND status = 'running'",
      );
      return rows[0]?.n ?? 0;
    };
    await until(async () => (await running()) === episodes.length);

    // Every tick: one statement naming every running episode's claim.
    await until(() => renewals.length >= 1);
    expect(renewals[0]?.[2]).toHaveLength(episodes.length);

    // Another node takes one episode's claim (its lease made to run out first, as if this node
    // had stalled), in one transaction so that no renewal lands in between.
    const victim = episodes[2]!;
    const victimKey = "manual:keeper-actor:run:2";
    const thief = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        "UPDATE cyclium_work_claims SET lease_until = now() - interval '1 second' WHERE dedupe_key = $1",
        [victimKey],
      );
      const stolen = await thief.acquire(
        { dedupeKey: victimKey, owner: "thief-node", leaseSeconds: 60 },
        client,
      );
      expect(stolen).toMatchObject({ ok: true, attempt: 2, stolen: true });
      await client.query("COMMIT");
    } finally {
      client.release();
    }

    // The next tick finds it gone: that episode stops, and only that one.
    expect(await runs[2]).toEqual({ kind: "left_running", reason: "aborted" });
    expect([...abortedSeen]).toEqual([victim.id]);
    const before = renewals.length;
    await until(() => renewals.length > before);
    expect(renewals.at(-1)?.[2]).toHaveLength(episodes.length - 1);
    expect(renewals.at(-1)?.[2]).not.toContain(victimKey);

    letFinish();
    const results = await Promise.all(runs);
    results.forEach((result, i) => {
      expect(result.kind).toBe(i === 2 ? "left_running" : "completed");
    });
    // The zombie wrote nothing: the episode is still running, for its new owner or recovery.
    const { rows } = await db.pool.query<{ status: string }>(
      "SELECT status FROM cyclium_episodes WHERE id = $1",
      [victim.id],
    );
    expect(rows[0]?.status).toBe("running");
    expect(await thief.holds({ dedupeKey: victimKey, owner: "thief-node", attempt: 2 })).toBe(true);
  }, 60_000);

  it("renews the episodes' own leases with one statement per tick; a stolen lease stops only its episode", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const aborted = new Set<string>();
    const waitsInRow: Strategy<unknown, null> = {
      init: () => null,
      step: async (_state, ctx) => {
        ctx.signal.addEventListener("abort", () => aborted.add(ctx.episode.id));
        await released;
        return done({ ok: true });
      },
    };
    const renewals: unknown[][] = [];
    const pool: Queryable & Connectable = {
      query: (text: string, params?: unknown[]) => {
        if (
          text.includes("UPDATE cyclium_episodes e") &&
          text.includes("SET lease_until = now()")
        ) {
          renewals.push(params ?? []);
        }
        return db.pool.query(text, params);
      },
      connect: () => db.pool.connect(),
    } as Queryable & Connectable;
    const telemetry = new Telemetry();
    const actor = defineActor({
      identifier: "row-keeper-actor",
      expectations: [{ id: "run", strategy: "waits", trigger: { manual: true } }],
    });
    const runner = new LocalRunner({
      db: pool,
      // The default: each run holds its lease in its episode's row.
      claims: new PostgresWorkClaims({ db: pool, telemetry }),
      leaseSeconds: 3,
      nodeIdentity: "row-keeper-node",
      registry: new ActorRegistry({
        actors: [actor],
        strategies: new StrategyRegistry({ waits: waitsInRow }),
      }),
      logger: silentLogger,
      telemetry,
      hardStop: new AbortController().signal,
      isDraining: () => false,
    });
    const episodes: Episode[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await createEpisode(
        {
          actorId: "row-keeper-actor",
          expectationId: "run",
          triggerType: "manual",
          dedupeKey: `manual:row-keeper-actor:run:${i}`,
          status: "pending",
          sourceNode: "row-keeper-node",
          sourceStack: null,
          sourceEnv: null,
          jitterMs: 0,
          logger: silentLogger,
          telemetry,
        },
        db.pool,
      );
      if (created.kind !== "created") throw new Error("episode not created");
      episodes.push(created.episode);
    }
    const runs = episodes.map((episode) => runner.run(episode));
    const running = async (): Promise<number> => {
      const { rows } = await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM cyclium_episodes WHERE actor_id = 'row-keeper-actor' AND status = 'running'",
      );
      return rows[0]?.n ?? 0;
    };
    await until(async () => (await running()) === episodes.length);

    // Every tick: one statement naming every running episode.
    await until(() => renewals.length >= 1);
    expect(renewals[0]?.[2]).toHaveLength(episodes.length);

    // Another node steals one lease once it lapsed, in one transaction (no renewal between).
    const victim = episodes[2]!;
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(
        "UPDATE cyclium_episodes SET lease_until = now() - interval '1 second' WHERE id = $1",
        [victim.id],
      );
      const stolen = await stealEpisodeLeases(
        { owner: "thief-node", leaseSeconds: 60, episodeIds: [victim.id] },
        client,
      );
      expect(stolen[0]).toMatchObject({ ok: true, attempt: 2, stolen: true });
      await client.query("COMMIT");
    } finally {
      client.release();
    }

    // The next tick answers not_owner for it: that episode stops, and only that one.
    expect(await runs[2]).toEqual({ kind: "left_running", reason: "aborted" });
    expect([...aborted]).toEqual([victim.id]);
    const before = renewals.length;
    await until(() => renewals.length > before);
    expect(renewals.at(-1)?.[2]).toHaveLength(episodes.length - 1);
    expect(renewals.at(-1)?.[2]).not.toContain(victim.id);

    release();
    const results = await Promise.all(runs);
    results.forEach((result, i) => {
      expect(result.kind).toBe(i === 2 ? "left_running" : "completed");
    });
    // The zombie wrote nothing: the row is the thief's, its lease live, no claim row written.
    const { rows } = await db.pool.query<{ status: string; executed_by: string }>(
      "SELECT status, executed_by FROM cyclium_episodes WHERE id = $1",
      [victim.id],
    );
    expect(rows[0]).toEqual({ status: "running", executed_by: "thief-node" });
    const fence = {
      dedupeKey: "manual:row-keeper-actor:run:2",
      owner: "thief-node",
      attempt: 2,
      episodeId: victim.id,
    };
    expect(await checkFence(fence, db.pool)).toBe(true);
    const claims = await db.pool.query(
      "SELECT 1 FROM cyclium_work_claims WHERE dedupe_key LIKE 'manual:row-keeper-actor:%'",
    );
    expect(claims.rowCount).toBe(0);
  }, 60_000);
});
