import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkFence } from "../../claims/index";
import { endEpisodes } from "../end-episodes";
import { end } from "./lease-fixtures";
import { startLeasedEpisodes } from "./start-leased-episodes";

// The queue's start of pending episodes by id under their own lease (SPEC section 4): what
// startEpisodes does with a claim row per episode, with the lease in the episode row.

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

beforeEach(async () => {
  await db.pool.query("TRUNCATE cyclium_episodes, cyclium_work_claims CASCADE");
});

/** Pending episodes in `node-a`'s queue. */
async function queued(count: number, dedupePrefix: string | null = null): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, dedupe_key, queued_by, queued_at)
     SELECT 'lease_actor', 'run', 'pending', 'manual',
            CASE WHEN $2::text IS NULL THEN NULL ELSE $2::text || g END, 'node-a', now()
       FROM generate_series(1, $1::int) g
     RETURNING id::text`,
    [count, dedupePrefix],
  );
  return rows.map((row) => row.id);
}

function startAll(owner: string, ids: string[], pool: pg.Pool = db.pool, resend = false) {
  return startLeasedEpisodes(
    {
      owner,
      leaseSeconds: 60,
      episodes: ids.map((episodeId) => ({ episodeId, claimKey: `episode:${episodeId}`, resend })),
    },
    pool,
  );
}

describe("startLeasedEpisodes", () => {
  it("starts pending episodes under their own lease, one statement, no claim row", async () => {
    const ids = await queued(3);
    const outcomes = await startAll("node-a", ids);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(["started", "started", "started"]);
    for (const outcome of outcomes) {
      if (outcome.kind !== "started") continue;
      expect(outcome.episode).toMatchObject({ status: "running", executedBy: "node-a" });
      expect(await checkFence(outcome.fence, db.pool)).toBe(true);
    }
    const { rows } = await db.pool.query<{ queued: number; leased: number; claims: number }>(
      `SELECT count(queued_by)::int AS queued, count(lease_until)::int AS leased,
              (SELECT count(*)::int FROM cyclium_work_claims) AS claims
         FROM cyclium_episodes`,
    );
    expect(rows[0]).toEqual({ queued: 0, leased: 3, claims: 0 });
    // A second start finds them running: not pending, nothing taken.
    expect((await startAll("node-b", ids)).map((o) => o.kind)).toEqual(
      Array(3).fill("not_pending"),
    );
  });

  it("starts each episode once when two nodes start the same batch", async () => {
    const ids = await queued(50);
    const pools = [1, 2].map(() => db.newPool({ max: 1 }));
    try {
      const [a, b] = await Promise.all([
        startAll("node-a", ids, pools[0]),
        startAll("node-b", ids, pools[1]),
      ]);
      const startedBy = ids.map((_, n) =>
        [a?.[n], b?.[n]].filter((outcome) => outcome?.kind === "started"),
      );
      expect(startedBy.every((started) => started.length === 1)).toBe(true);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("answers contended for a key a claim row holds, and raises attempt past a done one", async () => {
    const [held, done] = await queued(2);
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, attempt)
       VALUES ($1, 'claimed', 'old-node', now() - interval '1 second', 1),
              ($2, 'done', 'old-node', now(), 2)`,
      [`episode:${held}`, `episode:${done}`],
    );
    const [contended, started] = await startAll("node-a", [held!, done!]);
    expect(contended).toEqual({ kind: "contended" });
    expect(started).toMatchObject({ kind: "started", attempt: 3 });
  });

  it("adopts its own committed start on a resend, and fences nobody else's", async () => {
    const [id] = await queued(1);
    const [first] = await startAll("node-a", [id!]);
    if (first?.kind !== "started") throw new Error("not started");
    const [resent] = await startAll("node-a", [id!], db.pool, true);
    expect(resent).toMatchObject({ kind: "started", attempt: first.attempt });
    expect((await startAll("node-b", [id!], db.pool, true))[0]).toEqual({ kind: "not_pending" });
    const [ended] = await endEpisodes(
      { node: "node-a", ends: [end({ episodeId: id!, fence: first.fence })] },
      db.pool,
    );
    expect(ended).toMatchObject({ kind: "ended", episode: { status: "completed" } });
  });
});
