import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkFence, PostgresWorkClaims } from "../../claims/index";
import { sweepOrphanedEpisodes } from "../../recovery/recovery-sweep";
import { Telemetry, type TelemetryEvent } from "../../telemetry/index";
import {
  startRequestedEpisodes,
  type StartedRequestedEpisode,
} from "../../trigger-requests/start-requested-episodes";
import { appendStep } from "../append-step";
import { endEpisodes, type EpisodeEnd } from "../end-episodes";
import { renewEpisodeLeases } from "./renew-episode-leases";
import { stealEpisodeLeases } from "./steal-episode-leases";

// The episode's own lease (SPEC section 4) on a real PostgreSQL: the start that completes its
// request, renewal, steal, fencing of the old owner's writes and recovery's exactly-once claim.

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

const ACTOR = "lease_actor";

/** Pending episodes, each owned by a pending trigger request (the deferred path). */
async function seedRequested(count: number, dedupePrefix: string | null = null): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, dedupe_key)
       SELECT $1, 'run', 'pending', 'manual',
              CASE WHEN $3::text IS NULL THEN NULL ELSE $3::text || g END
         FROM generate_series(1, $2::int) g
       RETURNING id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
     SELECT id, $1, 'run', 'pending' FROM e
     RETURNING episode_id::text AS id`,
    [ACTOR, count, dedupePrefix],
  );
  return rows.map((row) => row.id);
}

function start(node: string, limit: number, pool: pg.Pool = db.pool, leaseSeconds = 60) {
  return startRequestedEpisodes(
    {
      node,
      leaseSeconds,
      limits: [{ actorId: ACTOR, limit }],
      sourceStack: null,
      sourceEnv: null,
    },
    pool,
  );
}

async function startOne(node: string): Promise<StartedRequestedEpisode> {
  const [started] = await start(node, 1);
  if (started === undefined) throw new Error("nothing started");
  return started;
}

function end(started: { episodeId: string; fence: EpisodeEnd["fence"] }): EpisodeEnd {
  return {
    episodeId: started.episodeId,
    fence: started.fence,
    status: "completed",
    result: { by: started.fence?.owner },
    finalStep: {
      stepNo: 1,
      outcome: "done",
      data: null,
      turns: 0,
      tokens: 0,
      durationMs: 1,
      attempt: started.fence?.attempt ?? 1,
    },
  };
}

async function lapse(episodeId: string): Promise<void> {
  await db.pool.query(
    "UPDATE cyclium_episodes SET lease_until = now() - interval '1 second' WHERE id = $1",
    [episodeId],
  );
}

async function row(episodeId: string) {
  const { rows } = await db.pool.query<{
    status: string;
    attempt: number;
    executed_by: string | null;
    leased: boolean;
    result: unknown;
  }>(
    `SELECT status, attempt, executed_by, lease_until IS NOT NULL AS leased, result
       FROM cyclium_episodes WHERE id = $1`,
    [episodeId],
  );
  return rows[0];
}

describe("starting requested episodes under their own lease", () => {
  it("completes each request in the statement that starts its episode, no claim row", async () => {
    const ids = await seedRequested(3);
    const started = await start("node-a", 10);

    expect(started.map((s) => s.episode.id).sort()).toEqual([...ids].sort());
    for (const s of started) {
      expect(s.episode).toMatchObject({ status: "running", executedBy: "node-a", attempt: 1 });
      expect(s.fence).toEqual({
        dedupeKey: `episode:${s.episode.id}`,
        owner: "node-a",
        attempt: 1,
        episodeId: s.episode.id,
      });
    }
    const { rows: requests } = await db.pool.query<{ status: string; claimed_by: string }>(
      "SELECT status, claimed_by FROM cyclium_trigger_requests",
    );
    expect(requests).toEqual(Array(3).fill({ status: "completed", claimed_by: "node-a" }));
    const { rows: leases } = await db.pool.query<{ live: boolean }>(
      "SELECT lease_until > now() + interval '50 seconds' AS live FROM cyclium_episodes",
    );
    expect(leases.every((lease) => lease.live)).toBe(true);
    const { rows: claims } = await db.pool.query("SELECT 1 FROM cyclium_work_claims");
    expect(claims).toHaveLength(0);
  });

  it("starts each episode exactly once when two nodes drain the same requests", async () => {
    const ids = await seedRequested(300);
    const pools = [1, 2].map(() => new pg.Pool({ connectionString: db.url, max: 2 }));
    try {
      const drain = async (node: string, pool: pg.Pool) => {
        const mine: string[] = [];
        for (;;) {
          const batch = await start(node, 24, pool);
          if (batch.length === 0) return mine;
          mine.push(...batch.map((s) => s.episode.id));
        }
      };
      const [a, b] = await Promise.all([drain("node-a", pools[0]!), drain("node-b", pools[1]!)]);
      const all = [...(a ?? []), ...(b ?? [])];
      expect(all).toHaveLength(300);
      expect(new Set(all)).toEqual(new Set(ids));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("leaves an episode with a claimed claim row alone, and starts past a done one", async () => {
    const [held, done] = await seedRequested(2, "key-");
    const { rows } = await db.pool.query<{ id: string; dedupe_key: string }>(
      "SELECT id, dedupe_key FROM cyclium_episodes WHERE id = ANY($1::uuid[])",
      [[held, done]],
    );
    const keyOf = new Map(rows.map((r) => [r.id, r.dedupe_key]));
    // Claim rows as a node of the previous release writes them.
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, attempt)
       VALUES ($1, 'claimed', 'old-node', now() + interval '1 minute', 1),
              ($2, 'done', 'old-node', now(), 3)`,
      [keyOf.get(held!), keyOf.get(done!)],
    );

    const started = await start("node-a", 10);

    expect(started.map((s) => s.episode.id)).toEqual([done]);
    expect(started[0]?.fence.attempt).toBe(4);
    const { rows: pending } = await db.pool.query<{ episode_id: string }>(
      "SELECT episode_id FROM cyclium_trigger_requests WHERE status = 'pending'",
    );
    expect(pending).toEqual([{ episode_id: held }]);
  });

  it("completes the request of an episode cancelled before it started", async () => {
    const [id] = await seedRequested(1);
    await db.pool.query("UPDATE cyclium_episodes SET status = 'cancelled' WHERE id = $1", [id]);
    expect(await start("node-a", 10)).toEqual([]);
    const { rows } = await db.pool.query("SELECT status FROM cyclium_trigger_requests");
    expect(rows).toEqual([{ status: "completed" }]);
  });
});

describe("steals and fencing of the episode's own lease", () => {
  it("fences every write of the old owner once its lapsed lease was stolen", async () => {
    await seedRequested(1);
    const zombie = await startOne("zombie");
    const episodeId = zombie.episode.id;
    const telemetry = new Telemetry();
    const events: TelemetryEvent[] = [];
    telemetry.subscribe((event) => events.push(event));

    const renewed = await renewEpisodeLeases(
      { owner: "zombie", leaseSeconds: 60, leases: [{ episodeId, attempt: 1 }], telemetry },
      db.pool,
    );
    expect(renewed).toEqual([{ ok: true }]);
    const live = await stealEpisodeLeases(
      { owner: "thief", leaseSeconds: 60, episodeIds: [episodeId], telemetry },
      db.pool,
    );
    expect(live).toEqual([{ ok: false, error: "busy" }]);

    await lapse(episodeId);
    const [stolen] = await stealEpisodeLeases(
      { owner: "thief", leaseSeconds: 60, episodeIds: [episodeId], telemetry },
      db.pool,
    );
    if (!stolen?.ok) throw new Error("not stolen");
    expect(stolen.attempt).toBe(2);
    expect(events.map((event) => event.name)).toEqual([
      "cyclium.work_claims.renewed",
      "cyclium.work_claims.busy",
      "cyclium.work_claims.steal",
    ]);

    // The zombie: its heartbeat, its fence check, its step and its end are all refused.
    expect(
      await renewEpisodeLeases(
        { owner: "zombie", leaseSeconds: 60, leases: [{ episodeId, attempt: 1 }] },
        db.pool,
      ),
    ).toEqual([{ ok: false, error: "not_owner" }]);
    expect(await checkFence(zombie.fence, db.pool)).toBe(false);
    expect(await checkFence(stolen.fence, db.pool)).toBe(true);
    const zombieStep = await appendStep(
      { episodeId, fence: zombie.fence, attempt: 1, stepNo: 1, outcome: "continue" },
      db.pool,
    );
    expect(zombieStep).toEqual({ kind: "fenced" });
    expect(
      await endEpisodes(
        { node: "zombie", ends: [end({ episodeId, fence: zombie.fence })] },
        db.pool,
      ),
    ).toEqual([{ kind: "fenced" }]);

    // The thief journals and ends under attempt 2; the lease is released with the end.
    const step = await appendStep(
      { episodeId, fence: stolen.fence, attempt: 2, stepNo: 1, outcome: "continue" },
      db.pool,
    );
    expect(step.kind).toBe("written");
    const thiefEnd = end({ episodeId, fence: stolen.fence });
    thiefEnd.finalStep = { ...thiefEnd.finalStep!, stepNo: 2 };
    const [ended] = await endEpisodes({ node: "thief", ends: [thiefEnd] }, db.pool);
    expect(ended).toMatchObject({ kind: "ended", episode: { status: "completed", attempt: 2 } });
    expect(await row(episodeId)).toMatchObject({
      status: "completed",
      attempt: 2,
      executed_by: "thief",
      leased: false,
      result: { by: "thief" },
    });
    // A resend of the same end (its reply lost) finds it committed and writes nothing again.
    const [resent] = await endEpisodes({ node: "thief", ends: [thiefEnd] }, db.pool);
    expect(resent).toMatchObject({ kind: "ended", alreadyEnded: true });
    const { rows: steps } = await db.pool.query<{ attempt: number; step_no: number }>(
      "SELECT attempt, step_no FROM cyclium_episode_steps ORDER BY step_no",
    );
    expect(steps).toEqual([
      { attempt: 2, step_no: 1 },
      { attempt: 2, step_no: 2 },
    ]);
  });

  it("lets exactly one of many thieves take a lapsed lease", async () => {
    await seedRequested(1);
    const { episode } = await startOne("dead");
    await lapse(episode.id);
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url }));
    try {
      const outcomes = await Promise.all(
        pools.map((pool, i) =>
          stealEpisodeLeases(
            { owner: `thief-${i}`, leaseSeconds: 60, episodeIds: [episode.id] },
            pool,
          ),
        ),
      );
      expect(outcomes.flat().filter((outcome) => outcome.ok)).toHaveLength(1);
      expect((await row(episode.id))?.attempt).toBe(2);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("fences the owner of a cancelled episode", async () => {
    await seedRequested(1);
    const started = await startOne("node-a");
    await db.pool.query(
      "UPDATE cyclium_episodes SET status = 'cancelled', lease_until = NULL WHERE id = $1",
      [started.episode.id],
    );
    expect(await checkFence(started.fence, db.pool)).toBe(false);
    expect(
      await endEpisodes(
        { node: "node-a", ends: [end({ episodeId: started.episode.id, fence: started.fence })] },
        db.pool,
      ),
    ).toEqual([{ kind: "fenced" }]);
  });
});

describe("recovery of episodes holding their own lease", () => {
  const restartAll = { recoveryPolicyFor: () => "restart" as const };

  async function orphan(): Promise<StartedRequestedEpisode> {
    await seedRequested(1);
    const started = await startOne("dead-node");
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
    expect(await row(episode.id)).toMatchObject({ status: "running", leased: true });
  });

  for (const gate of ["work claims", "recovery claim only"] as const) {
    it(`restarts a lapsed one exactly once across nodes and fences its old owner (${gate})`, async () => {
      const dead = await orphan();
      await lapse(dead.episode.id);
      const pools = Array.from({ length: 3 }, () => new pg.Pool({ connectionString: db.url }));
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
      expect(await row(dead.episode.id)).toMatchObject({
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
