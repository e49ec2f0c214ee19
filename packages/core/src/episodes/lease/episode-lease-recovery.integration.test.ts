import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkFence, PostgresWorkClaims } from "../../claims/index";
import { sweepOrphanedEpisodes } from "../../recovery/recovery-sweep";
import type { StartedRequestedEpisode } from "../../deferred/start-requested-episodes";
import { endEpisodes } from "../end-episodes";
import { end, lapse, leaseRow, seedRequested, startOne } from "./lease-fixtures";
import { renewEpisodeLeases } from "./renew-episode-leases";

// Recovery of episodes holding their own lease (SPEC sections 4 and 5): a live lease is no
// orphan, a lapsed one is recovered exactly once however many nodes sweep, and the old owner is
// fenced after. And the heartbeat's renewal is a HOT update of the episode row.

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

describe("recovery of episodes holding their own lease", () => {
  const restartAll = { recoveryPolicyFor: () => "restart" as const };

  async function orphan(): Promise<StartedRequestedEpisode> {
    await seedRequested(db, 1);
    const started = await startOne("dead-node", db.pool);
    // Stale by the sweep's test (no step for an hour).
    await db.pool.query(
      "UPDATE cyclium_episodes SET started_at = now() - interval '1 hour' WHERE id = $1",
      [started.episode.id],
    );
    return started;
  }

  it("leaves an episode alone while its lease is live: its owner renews it", async () => {
    const { episode } = await orphan();
    const result = await sweepOrphanedEpisodes({
      db: db.pool,
      node: "sweeper",
      scope: { stack: null, env: null },
      registry: restartAll,
      claims: new PostgresWorkClaims({ db: db.pool }),
    });
    expect(result).toMatchObject({ found: 1, claimed: 0, restarted: 0 });
    expect(await leaseRow(db, episode.id)).toMatchObject({ status: "running", leased: true });
  });

  for (const gate of ["work claims", "recovery claim only"] as const) {
    it(`restarts a lapsed one exactly once across nodes and fences its old owner (${gate})`, async () => {
      const dead = await orphan();
      await lapse(db, dead.episode.id);
      const pools = Array.from({ length: 3 }, () => db.newPool());
      try {
        const results = await Promise.all(
          pools.map((pool, i) =>
            sweepOrphanedEpisodes({
              db: pool,
              node: `sweeper-${i}`,
              scope: { stack: null, env: null },
              registry: restartAll,
              ...(gate === "work claims" ? { claims: new PostgresWorkClaims({ db: pool }) } : {}),
            }),
          ),
        );
        expect(results.reduce((sum, result) => sum + result.restarted, 0)).toBe(1);
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
      }
      expect(await leaseRow(db, dead.episode.id)).toMatchObject({
        status: "pending",
        attempt: 2,
        executed_by: null,
        leased: false,
      });
      expect(await checkFence(dead.fence, db.pool)).toBe(false);
      expect(
        await endEpisodes(
          { node: "dead-node", ends: [end({ episodeId: dead.episode.id, fence: dead.fence })] },
          db.pool,
        ),
      ).toEqual([{ kind: "fenced" }]);
    });
  }
});

describe("the heartbeat of an episode's own lease", () => {
  it("renews in place (HOT): lease_until is in no index", async () => {
    await seedRequested(db, 20);
    const started = await Promise.all(
      Array.from({ length: 20 }, () => startOne("node-a", db.pool)),
    );
    // A HOT update also needs room on the row's page. Freshly inserted and started episodes
    // fill one page with 40 row versions (5 of 20 renewals found no room); by the first renewal,
    // lease/3 = 40 s later, page pruning has removed the dead ones. VACUUM stands in for it.
    await db.pool.query("VACUUM cyclium_episodes");
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const counts = async () => {
        const { rows } = await client.query<{ updated: string; hot: string }>(
          `SELECT pg_stat_get_xact_tuples_updated('cyclium_episodes'::regclass) AS updated,
                  pg_stat_get_xact_tuples_hot_updated('cyclium_episodes'::regclass) AS hot`,
        );
        return { updated: Number(rows[0]?.updated), hot: Number(rows[0]?.hot) };
      };
      const before = await counts();
      const renewed = await renewEpisodeLeases(
        {
          owner: "node-a",
          leaseSeconds: 60,
          leases: started.map((s) => ({ episodeId: s.episode.id, attempt: s.fence.attempt })),
        },
        client,
      );
      expect(renewed.every((outcome) => outcome.ok)).toBe(true);
      const after = await counts();
      expect({ updated: after.updated - before.updated, hot: after.hot - before.hot }).toEqual({
        updated: 20,
        hot: 20,
      });
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
