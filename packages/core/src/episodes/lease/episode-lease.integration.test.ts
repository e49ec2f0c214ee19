import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkFence } from "../../claims/index";
import { Telemetry, type TelemetryEvent } from "../../telemetry/index";
import { appendStep } from "../append-step";
import { endEpisodes } from "../end-episodes";
import {
  end,
  lapse as lapseFixture,
  leaseRow,
  seedRequested,
  start as startFixture,
  startOne as startOneFixture,
} from "./lease-fixtures";
import { renewEpisodeLeases } from "./renew-episode-leases";
import { stealEpisodeLeases } from "./steal-episode-leases";

// The episode's own lease (SPEC section 4) on a real PostgreSQL: the start that completes its
// request, renewal, steal and fencing of the old owner's writes. Recovery: the -recovery file.

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

const seed = (count: number, dedupePrefix: string | null = null) =>
  seedRequested(db, count, dedupePrefix);
const start = (node: string, limit: number, pool: pg.Pool = db.pool) =>
  startFixture(node, limit, pool);
const startOne = (node: string) => startOneFixture(node, db.pool);
const lapse = (episodeId: string) => lapseFixture(db, episodeId);
const row = (episodeId: string) => leaseRow(db, episodeId);

describe("starting requested episodes under their own lease", () => {
  it("consumes each request in the statement that starts its episode, no claim row", async () => {
    const ids = await seed(3);
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
    // The episode is the record of the run (executed_by, started_at): the request is deleted.
    const { rows: requests } = await db.pool.query("SELECT 1 FROM cyclium_trigger_requests");
    expect(requests).toHaveLength(0);
    const { rows: leases } = await db.pool.query<{ live: boolean }>(
      "SELECT lease_until > now() + interval '50 seconds' AS live FROM cyclium_episodes",
    );
    expect(leases.every((lease) => lease.live)).toBe(true);
    const { rows: claims } = await db.pool.query("SELECT 1 FROM cyclium_work_claims");
    expect(claims).toHaveLength(0);
  });

  it("starts each episode exactly once when two nodes drain the same requests", async () => {
    const ids = await seed(300);
    const pools = [1, 2].map(() => db.newPool({ max: 2 }));
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
    const [held, done] = await seed(2, "key-");
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

  it("consumes the request of an episode cancelled before it started", async () => {
    const [id] = await seed(1);
    await db.pool.query("UPDATE cyclium_episodes SET status = 'cancelled' WHERE id = $1", [id]);
    expect(await start("node-a", 10)).toEqual([]);
    const { rows } = await db.pool.query("SELECT status FROM cyclium_trigger_requests");
    expect(rows).toEqual([]);
  });
});

describe("steals and fencing of the episode's own lease", () => {
  it("fences every write of the old owner once its lapsed lease was stolen", async () => {
    await seed(1);
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

  it("fences an end whose lease is stolen while the end statement runs", async () => {
    await seed(1);
    const zombie = await startOne("zombie");
    const episodeId = zombie.episode.id;
    // The thief's steal holds the row, uncommitted, while the zombie's end statement reads the
    // fence from its snapshot (still the zombie's) and waits to write the row.
    const thief = await db.pool.connect();
    const ender = db.newPool();
    try {
      await thief.query("BEGIN");
      await thief.query(
        `UPDATE cyclium_episodes SET executed_by = 'thief', attempt = attempt + 1,
                lease_until = now() + interval '60 seconds' WHERE id = $1`,
        [episodeId],
      );
      const pending = endEpisodes(
        { node: "zombie", ends: [end({ episodeId, fence: zombie.fence })] },
        ender,
      );
      await expect
        .poll(async () => {
          const { rows } = await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE '%WITH input AS%'
                AND pid <> pg_backend_pid()`,
          );
          return rows[0]?.n;
        })
        .toBe(1);
      await thief.query("COMMIT");
      expect(await pending).toEqual([{ kind: "fenced" }]);
    } finally {
      thief.release();
      await ender.end();
    }
    // Nothing of the zombie's end was written: the row is the thief's, the journal empty.
    expect(await row(episodeId)).toMatchObject({
      status: "running",
      attempt: 2,
      executed_by: "thief",
      leased: true,
      result: null,
    });
    const { rows: steps } = await db.pool.query("SELECT 1 FROM cyclium_episode_steps");
    expect(steps).toEqual([]);
  });

  it("lets exactly one of many thieves take a lapsed lease", async () => {
    await seed(1);
    const { episode } = await startOne("dead");
    await lapse(episode.id);
    const pools = Array.from({ length: 4 }, () => db.newPool());
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
    await seed(1);
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
