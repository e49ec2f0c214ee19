import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEpisode } from "../episodes/start-episode";
import { startEpisodes } from "../episodes/start-episodes";
import { startLeasedEpisodes } from "../episodes/lease/index";
import { explainPendingEpisodes } from "../reasons/index";
import { startRequestedEpisodes } from "../deferred/index";
import type { LimitRule } from "./limit-rules";

// The gate every start statement includes (SPEC section 16): a limit is never exceeded, whatever
// the path that starts an episode and however many nodes start at once.

let db: TestDatabase;
let pools: pg.Pool[];

beforeAll(async () => {
  db = await createTestDatabase();
  pools = Array.from({ length: 6 }, () => db.newPool({ max: 1 }));
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await db.drop();
});
beforeEach(async () => {
  await db.pool.query(
    "TRUNCATE cyclium_episodes, cyclium_work_claims, cyclium_limit_starts CASCADE",
  );
});

async function pending(count: number): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
     SELECT 'llm', 'call', 'pending', 'manual' FROM generate_series(1, $1::int)
     RETURNING id::text`,
    [count],
  );
  return rows.map((row) => row.id);
}

const global = (limit: number): LimitRule => ({ k: "global:/llm", c: "concurrency", l: limit });

function batch(ids: readonly string[], rules: (id: string) => LimitRule[]) {
  return ids.map((episodeId) => ({
    episodeId,
    claimKey: `episode:${episodeId}`,
    limits: rules(episodeId),
  }));
}

async function running(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM cyclium_episodes WHERE status = 'running'",
  );
  return rows[0]?.n ?? 0;
}

async function finish(ids: readonly string[]): Promise<void> {
  await db.pool.query(
    "UPDATE cyclium_episodes SET status = 'completed', finished_at = now() WHERE id = ANY($1::uuid[])",
    [ids],
  );
}

describe("the limit gate in startEpisodes (claim rows)", () => {
  it("starts up to the global limit and refuses the rest with the reason", async () => {
    const ids = await pending(5);
    const outcomes = await startEpisodes(
      { owner: "n1", leaseSeconds: 60, episodes: batch(ids, () => [global(2)]) },
      db.pool,
    );
    expect(outcomes.map((o) => o.kind)).toEqual([
      "started",
      "started",
      "limited",
      "limited",
      "limited",
    ]);
    expect(outcomes[2]).toMatchObject({
      kind: "limited",
      wait: { k: "global:/llm", c: "concurrency", l: 2, n: 2 },
    });
    // Refused: still pending, no claim taken, the reason on the row.
    const { rows } = await db.pool.query<{ status: string; limit_wait: unknown; claims: number }>(
      `SELECT status, limit_wait,
              (SELECT count(*)::int FROM cyclium_work_claims WHERE dedupe_key = 'episode:' || e.id) AS claims
         FROM cyclium_episodes e WHERE id = $1`,
      [ids[4]],
    );
    expect(rows[0]).toMatchObject({
      status: "pending",
      claims: 0,
      limit_wait: { k: "global:/llm", n: 2 },
    });
    // A freed slot lets exactly one more start.
    await finish(ids.slice(0, 1));
    const again = await startEpisodes(
      { owner: "n2", leaseSeconds: 60, episodes: batch(ids.slice(2), () => [global(2)]) },
      db.pool,
    );
    expect(again.map((o) => o.kind)).toEqual(["started", "limited", "limited"]);
    // Episodes without rules are never held back.
    const free = await pending(3);
    const unlimited = await startEpisodes(
      { owner: "n1", leaseSeconds: 60, episodes: batch(free, () => []) },
      db.pool,
    );
    expect(unlimited.map((o) => o.kind)).toEqual(["started", "started", "started"]);
  });

  it("never exceeds a global limit when six nodes start batches at once", async () => {
    for (let round = 0; round < 5; round += 1) {
      await db.pool.query("TRUNCATE cyclium_episodes, cyclium_work_claims CASCADE");
      const ids = await pending(60);
      const outcomes = await Promise.all(
        pools.map((pool, node) =>
          startEpisodes(
            {
              owner: `n${node}`,
              leaseSeconds: 60,
              episodes: batch(ids.slice(node * 10, node * 10 + 10), () => [global(7)]),
            },
            pool,
          ),
        ),
      );
      const started = outcomes.flat().filter((o) => o.kind === "started").length;
      expect(started).toBe(7);
      expect(await running()).toBe(7);
    }
  });

  it("serializes one key of a per-key limit while other keys start", async () => {
    const ids = await pending(6);
    const key = (id: string): LimitRule[] => [
      { k: `key:/llm:${ids.indexOf(id) < 3 ? "acme" : ids.indexOf(id)}`, c: "concurrency", l: 1 },
    ];
    const outcomes = await startEpisodes(
      { owner: "n1", leaseSeconds: 60, episodes: batch(ids, key) },
      db.pool,
    );
    expect(outcomes.map((o) => o.kind)).toEqual([
      "started",
      "limited",
      "limited",
      "started",
      "started",
      "started",
    ]);
  });

  it("holds a rate limit over its sliding period and says until when", async () => {
    const ids = await pending(5);
    const rate: LimitRule = { k: "rate:/llm", c: "rate", l: 3, p: 60_000 };
    const first = await startEpisodes(
      { owner: "n1", leaseSeconds: 60, episodes: batch(ids.slice(0, 2), () => [rate]) },
      db.pool,
    );
    // Finishing does not free a rate limit: starts count, not running episodes.
    await finish(ids.slice(0, 2));
    const second = await startEpisodes(
      { owner: "n2", leaseSeconds: 60, episodes: batch(ids.slice(2), () => [rate]) },
      db.pool,
    );
    expect([...first, ...second].map((o) => o.kind)).toEqual([
      "started",
      "started",
      "started",
      "limited",
      "limited",
    ]);
    const refused = second[1];
    if (refused?.kind !== "limited") throw new Error("not limited");
    const { rows } = await db.pool.query<{ first: Date }>(
      "SELECT min(started_at) AS first FROM cyclium_episodes WHERE started_at IS NOT NULL",
    );
    expect(refused.wait.until?.getTime()).toBe((rows[0]?.first.getTime() ?? 0) + 60_000);
    // The window's rows are the starts, with the episodes' own started_at.
    const window = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_limit_starts s JOIN cyclium_episodes e
          ON e.id = s.episode_id AND e.started_at = s.started_at WHERE s.limit_key = 'rate:/llm'`,
    );
    expect(window.rows[0]?.n).toBe(3);
  });
});

describe("the limit gate in startEpisode (one episode, fenced)", () => {
  it("refuses a start past the limit and starts once a slot frees", async () => {
    const ids = await pending(3);
    const start = (episodeId: string) =>
      startEpisode({ episodeId, fence: null, executedBy: "n1", limits: [global(1)] }, db.pool);
    expect((await start(ids[0]!)).kind).toBe("started");
    const refused = await start(ids[1]!);
    expect(refused).toMatchObject({ kind: "limited", wait: { l: 1, n: 1 } });
    await finish(ids.slice(0, 1));
    expect((await start(ids[1]!)).kind).toBe("started");
    expect(await running()).toBe(1);
  });
});

describe("the limit gate in startLeasedEpisodes (the episode's own lease)", () => {
  it("never exceeds a global limit when six nodes start at once", async () => {
    const ids = await pending(60);
    const outcomes = await Promise.all(
      pools.map((pool, node) =>
        startLeasedEpisodes(
          {
            owner: `n${node}`,
            leaseSeconds: 60,
            episodes: batch(ids.slice(node * 10, node * 10 + 10), () => [global(5)]),
          },
          pool,
        ),
      ),
    );
    expect(outcomes.flat().filter((o) => o.kind === "started")).toHaveLength(5);
    expect(outcomes.flat().filter((o) => o.kind === "limited")).toHaveLength(55);
    expect(await running()).toBe(5);
  });
});

describe("the limit gate in startRequestedEpisodes (requests, the episode's own lease)", () => {
  async function requested(count: number): Promise<void> {
    await db.pool.query(
      `WITH e AS (
         INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, input)
         SELECT 'llm', 'call', 'pending', 'manual', jsonb_build_object('n', g)
           FROM generate_series(1, $1::int) g
         RETURNING id)
       INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
       SELECT id, 'llm', 'call', 'pending' FROM e`,
      [count],
    );
  }
  const limited = { actorIds: ["llm"], rulesFor: () => [global(4)] };
  const start = (node: string, pool: pg.Pool) =>
    startRequestedEpisodes(
      {
        node,
        leaseSeconds: 60,
        limits: [{ actorId: "llm", limit: 10 }],
        sourceStack: null,
        sourceEnv: null,
        limited,
      },
      pool,
    );

  it("never exceeds a global limit when six nodes start at once; refused requests wait", async () => {
    await requested(60);
    const started = await Promise.all(pools.map((pool, node) => start(`n${node}`, pool)));
    expect(started.flat()).toHaveLength(4);
    expect(await running()).toBe(4);
    const { rows } = await db.pool.query<{ status: string; waits: number; n: number }>(
      `SELECT status, count(limit_wait)::int AS waits, count(*)::int AS n
         FROM cyclium_trigger_requests GROUP BY status ORDER BY status`,
    );
    // The 4 started consumed their requests; every refused one is still pending, and says why.
    expect(rows.map((row) => row.status)).toEqual(["pending"]);
    const pending = rows.find((row) => row.status === "pending");
    expect(pending?.n).toBe(56);
    expect(pending?.waits).toBeGreaterThan(0);
    // Why it waits, as the console, REST and the client say it.
    const { rows: waiting } = await db.pool.query<{ id: string; nodes: string[] }>(
      `SELECT (SELECT e.id::text FROM cyclium_episodes e WHERE e.limit_wait IS NOT NULL LIMIT 1) AS id,
              (SELECT array_agg(DISTINCT executed_by ORDER BY executed_by) FROM cyclium_episodes
                WHERE status = 'running') AS nodes`,
    );
    const id = waiting[0]?.id ?? "";
    const reasons = await explainPendingEpisodes({ db: db.pool, episodeIds: [id] });
    expect(reasons[id]).toMatchObject({
      code: "concurrency_limited",
      message: `Global limit 4/4, running on ${waiting[0]?.nodes.join(", ")}: it starts when one of them ends.`,
    });
    // While the limit is full, the pick skips the refused requests: nothing is started or taken.
    expect(await start("n9", db.pool)).toHaveLength(0);
    // A freed slot lets one more start.
    const { rows: one } = await db.pool.query<{ id: string }>(
      "SELECT id::text FROM cyclium_episodes WHERE status = 'running' LIMIT 1",
    );
    await finish(one.map((row) => row.id));
    expect(await start("n9", db.pool)).toHaveLength(1);
    expect(await running()).toBe(4);
  });
  it("takes no more requests than the actor's global limit has room for: nothing refused", async () => {
    await requested(20);
    const roomed = { ...limited, roomFor: () => global(4) };
    const take = (node: string) =>
      startRequestedEpisodes(
        {
          node,
          leaseSeconds: 60,
          limits: [{ actorId: "llm", limit: 10 }],
          sourceStack: null,
          sourceEnv: null,
          limited: roomed,
        },
        db.pool,
      );
    expect(await take("n1")).toHaveLength(4);
    expect(await take("n2")).toHaveLength(0);
    const { rows: one } = await db.pool.query<{ id: string }>(
      "SELECT id::text FROM cyclium_episodes WHERE status = 'running' LIMIT 1",
    );
    await finish(one.map((row) => row.id));
    expect(await take("n2")).toHaveLength(1);
    // The pick counted the room first: no request or episode was refused (each a write).
    const { rows } = await db.pool.query<{ waits: number }>(
      `SELECT (SELECT count(limit_wait) FROM cyclium_trigger_requests)
            + (SELECT count(limit_wait) FROM cyclium_episodes) AS waits`,
    );
    expect(Number(rows[0]?.waits)).toBe(0);
  });
});

describe("why a rate-limited episode waits", () => {
  it("says until when", async () => {
    await db.pool.query(
      `WITH e AS (
         INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
         SELECT 'llm', 'call', 'pending', 'manual' FROM generate_series(1, 3)
         RETURNING id)
       INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
       SELECT id, 'llm', 'call', 'pending' FROM e`,
    );
    const rate: LimitRule = { k: "rate:/llm", c: "rate", l: 2, p: 60_000 };
    const started = await startRequestedEpisodes(
      {
        node: "n1",
        leaseSeconds: 60,
        limits: [{ actorId: "llm", limit: 10 }],
        sourceStack: null,
        sourceEnv: null,
        limited: { actorIds: ["llm"], rulesFor: () => [rate] },
      },
      db.pool,
    );
    expect(started).toHaveLength(2);
    const { rows } = await db.pool.query<{ id: string; until: Date }>(
      `SELECT id::text, (limit_wait->>'until')::timestamptz AS until
         FROM cyclium_episodes WHERE status = 'pending'`,
    );
    const waiting = rows[0];
    if (waiting === undefined) throw new Error("none waits");
    const reasons = await explainPendingEpisodes({ db: db.pool, episodeIds: [waiting.id] });
    expect(reasons[waiting.id]).toMatchObject({
      code: "rate_limited",
      message: `Rate limited until ${waiting.until.toISOString()} (2 starts per 60 s): no node starts it before.`,
    });
  });
});
