import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ActorRegistry, defineActor, StrategyRegistry } from "../actors/index";
import { MemoryBus, type BusEvent } from "../bus/index";
import { acquireClaim, PostgresWorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import type { Episode } from "../episodes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { LocalRunner } from "./local-runner";
import { createHostFixture, noopStrategy } from "./testing/index";
import { createManualEpisode } from "../episodes/testing/index";

let db: TestDatabase;
const node = "batch-node";

beforeAll(async () => {
  db = await createTestDatabase();
});
beforeEach(async () => {
  await db.pool.query("TRUNCATE cyclium_episodes, cyclium_work_claims CASCADE");
});
afterAll(async () => {
  await db.drop();
});

/** The pool, counting the statements sent outside transactions (the runner's only kind). */
function countingPool(pool: pg.Pool): Queryable & Connectable & { statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    query: (text: string, params?: unknown[]) => {
      statements.push(text);
      return pool.query(text, params);
    },
    connect: () => pool.connect(),
  } as Queryable & Connectable & { statements: string[] };
}

function runner(
  db: Queryable & Connectable,
  bus: MemoryBus,
  episodeLeases: "claim_rows" | "in_row" = "claim_rows",
) {
  const telemetry = new Telemetry();
  const actor = defineActor({
    identifier: "a",
    maxConcurrentEpisodes: 50,
    expectations: [{ id: "run", strategy: "noop", trigger: { manual: true } }],
  });
  return new LocalRunner({
    db,
    claims: new PostgresWorkClaims({ db, telemetry, episodeLeases }),
    leaseSeconds: 30,
    nodeIdentity: node,
    registry: new ActorRegistry({
      actors: [actor],
      strategies: new StrategyRegistry({ noop: noopStrategy }),
    }),
    bus,
    logger: silentLogger,
    telemetry,
    hardStop: new AbortController().signal,
    isDraining: () => false,
  });
}

/** A pending episode with a trigger request this node has claimed. */
async function dispatched(): Promise<{ episode: Episode; requestId: string }> {
  const episode = await createManualEpisode(db.pool);
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_trigger_requests
       (episode_id, actor_id, expectation_id, status, claimed_by, claimed_at)
     VALUES ($1, 'a', 'run', 'claimed', $2, now()) RETURNING id::text`,
    [episode.id, node],
  );
  return { episode, requestId: rows[0]?.id ?? "" };
}

describe("LocalRunner with postgres claims", () => {
  it("starts and ends episodes run together in shared statements, completing their requests", async () => {
    const pool = countingPool(db.pool);
    const bus = new MemoryBus();
    const events: BusEvent[] = [];
    bus.subscribe("episode.completed", (event) => void events.push(event));
    const local = runner(pool, bus);
    const work = await Promise.all(Array.from({ length: 20 }, () => dispatched()));

    const results = await Promise.all(
      work.map(({ episode, requestId }) => local.run(episode, { triggerRequestId: requestId })),
    );

    expect(results.map((r) => r.kind)).toEqual(work.map(() => "completed"));
    // One start, then the ends of episodes that finished in the same turn or during the write
    // before: one or two statements, never one or more per episode.
    expect(pool.statements.length).toBeLessThanOrEqual(4);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_episodes e
         JOIN cyclium_work_claims c ON c.dedupe_key = 'episode:' || e.id
         JOIN cyclium_trigger_requests r ON r.episode_id = e.id
        WHERE e.status = 'completed' AND e.executed_by = $1 AND e.turns_used = 1
          AND c.state = 'done' AND c.attempt = 1 AND r.status = 'completed'
          AND (SELECT count(*) FROM cyclium_episode_steps s WHERE s.episode_id = e.id) = 1`,
      [node],
    );
    expect(rows[0]?.n).toBe(20);
    // MemoryBus cannot send inside the statement: each event is published after the end.
    expect(
      events.map((event) => (event.payload as { episodeId: string }).episodeId).sort(),
    ).toEqual(work.map(({ episode }) => episode.id).sort());
  });

  it("falls back to the one-episode acquire for a held claim: busy while live, stolen when lapsed", async () => {
    const local = runner(db.pool, new MemoryBus());
    const live = await dispatched();
    const lapsed = await dispatched();
    await acquireClaim(
      { dedupeKey: `episode:${live.episode.id}`, owner: "other", leaseSeconds: 60 },
      db.pool,
    );
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until)
       VALUES ($1, 'claimed', 'dead', now() - interval '1 minute')`,
      [`episode:${lapsed.episode.id}`],
    );
    const [busy, stolen] = await Promise.all([
      local.run(live.episode, { triggerRequestId: live.requestId }),
      local.run(lapsed.episode, { triggerRequestId: lapsed.requestId }),
    ]);
    expect(busy).toEqual({ kind: "busy" });
    expect(stolen).toMatchObject({ kind: "completed" });
    const { rows } = await db.pool.query<{ attempt: number; steals: number; state: string }>(
      "SELECT attempt, steals, state FROM cyclium_work_claims WHERE dedupe_key = $1",
      [`episode:${lapsed.episode.id}`],
    );
    expect(rows[0]).toEqual({ attempt: 2, steals: 1, state: "done" });
  });

  it("does not start an episode cancelled before its turn", async () => {
    const local = runner(db.pool, new MemoryBus());
    const { episode, requestId } = await dispatched();
    await db.pool.query("UPDATE cyclium_episodes SET status = 'cancelled' WHERE id = $1", [
      episode.id,
    ]);
    expect(await local.run(episode, { triggerRequestId: requestId })).toEqual({
      kind: "not_pending",
    });
    const { rows } = await db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM cyclium_work_claims",
    );
    expect(rows[0]?.n).toBe(0);
  });

  it("tells the poller the request is completed already, so it sends no second write", async () => {
    const fixture = createHostFixture(() => db.pool);
    try {
      const { host, nodeIdentity } = fixture.startHost([
        fixture.actor("a", noopStrategy, { maxConcurrentEpisodes: 4 }),
      ]);
      const { episode, requestId } = await dispatched();
      await db.pool.query("UPDATE cyclium_trigger_requests SET claimed_by = $1 WHERE id = $2", [
        nodeIdentity,
        requestId,
      ]);
      const dispatch = host.dispatch(episode, { triggerRequestId: requestId });
      if (dispatch.kind !== "queued") throw new Error(dispatch.kind);
      expect(await dispatch.settled).toEqual({ kind: "request_completed" });
      const { rows } = await db.pool.query<{ status: string }>(
        "SELECT status FROM cyclium_trigger_requests WHERE id = $1",
        [requestId],
      );
      expect(rows[0]?.status).toBe("completed");
    } finally {
      await fixture.stopAll();
    }
  });
});

describe("LocalRunner on the episodes' own leases", () => {
  it("starts and ends episodes run together in shared statements, with no claim row", async () => {
    const pool = countingPool(db.pool);
    const local = runner(pool, new MemoryBus(), "in_row");
    const work = await Promise.all(Array.from({ length: 20 }, () => dispatched()));

    const results = await Promise.all(
      work.map(({ episode, requestId }) => local.run(episode, { triggerRequestId: requestId })),
    );

    expect(results.map((r) => r.kind)).toEqual(work.map(() => "completed"));
    expect(pool.statements.length).toBeLessThanOrEqual(4);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_episodes e
         JOIN cyclium_trigger_requests r ON r.episode_id = e.id
        WHERE e.status = 'completed' AND e.executed_by = $1 AND e.turns_used = 1
          AND e.attempt = 1 AND e.lease_until IS NULL AND r.status = 'completed'
          AND (SELECT count(*) FROM cyclium_episode_steps s WHERE s.episode_id = e.id) = 1`,
      [node],
    );
    expect(rows[0]?.n).toBe(20);
    const claims = await db.pool.query("SELECT 1 FROM cyclium_work_claims");
    expect(claims.rowCount).toBe(0);
  });

  it("takes the claim-row path for a key an old node holds: busy while live, stolen when lapsed", async () => {
    const local = runner(db.pool, new MemoryBus(), "in_row");
    const live = await dispatched();
    const lapsed = await dispatched();
    await acquireClaim(
      { dedupeKey: `episode:${live.episode.id}`, owner: "other", leaseSeconds: 60 },
      db.pool,
    );
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until)
       VALUES ($1, 'claimed', 'dead', now() - interval '1 minute')`,
      [`episode:${lapsed.episode.id}`],
    );
    const [busy, stolen] = await Promise.all([
      local.run(live.episode, { triggerRequestId: live.requestId }),
      local.run(lapsed.episode, { triggerRequestId: lapsed.requestId }),
    ]);
    expect(busy).toEqual({ kind: "busy" });
    expect(stolen).toMatchObject({ kind: "completed" });
    const { rows } = await db.pool.query<{ attempt: number; steals: number; state: string }>(
      "SELECT attempt, steals, state FROM cyclium_work_claims WHERE dedupe_key = $1",
      [`episode:${lapsed.episode.id}`],
    );
    expect(rows[0]).toEqual({ attempt: 2, steals: 1, state: "done" });
    const episode = await db.pool.query<{ leased: boolean; status: string }>(
      "SELECT lease_until IS NOT NULL AS leased, status FROM cyclium_episodes WHERE id = $1",
      [live.episode.id],
    );
    expect(episode.rows[0]).toEqual({ leased: false, status: "pending" });
  });
});
