import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryBus, type BusEvent } from "../../bus/index";
import { claimKeyOf } from "../../claims/claim-key";
import { withTransaction } from "../../db/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../../deferred/trigger-request";
import { archiveEpisodes } from "./archive-episodes";
import { cancelEpisode, cancelEpisodes } from "./cancel-episodes";
import { retryEpisode, retryEpisodes } from "../../retries/retry-episodes";

let db: TestDatabase;
const UNKNOWN = "00000000-0000-4000-8000-00000000abcd";

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.drop();
});

beforeEach(async () => {
  await db.pool.query(
    "TRUNCATE cyclium_episodes, cyclium_work_claims, cyclium_trigger_requests CASCADE",
  );
});

async function insertEpisode(
  status: string,
  extra: { dedupeKey?: string; queuedBy?: string; archived?: boolean; env?: string } = {},
): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, dedupe_key, queued_by, queued_at,
        archived_at, source_env)
     VALUES ('alpha', 'check', $1, 'manual', $2, $3::text, CASE WHEN $3::text IS NULL THEN NULL ELSE now() END,
             CASE WHEN $4::boolean THEN now() END, $5)
     RETURNING id`,
    [
      status,
      extra.dedupeKey ?? null,
      extra.queuedBy ?? null,
      extra.archived ?? false,
      extra.env ?? null,
    ],
  );
  return rows[0]?.id ?? "";
}

async function insertClaim(key: string): Promise<void> {
  await db.pool.query(
    `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until)
     VALUES ($1, 'claimed', 'worker-1', now() + interval '2 minutes')`,
    [key],
  );
}

async function episodeState(id: string) {
  const { rows } = await db.pool.query<{
    status: string;
    attempt: number;
    queued_by: string | null;
    queued_at: Date | null;
    archived_at: Date | null;
  }>(
    "SELECT status, attempt, queued_by, queued_at, archived_at FROM cyclium_episodes WHERE id = $1",
    [id],
  );
  return rows[0];
}

async function claimState(key: string): Promise<string | undefined> {
  const { rows } = await db.pool.query<{ state: string }>(
    "SELECT state FROM cyclium_work_claims WHERE dedupe_key = $1",
    [key],
  );
  return rows[0]?.state;
}

describe("cancelEpisodes", () => {
  it("answers per id, clears the queue owner, fails the claim and publishes episode.cancelled", async () => {
    const queued = await insertEpisode("pending", { queuedBy: "node-a" });
    const running = await insertEpisode("running", { dedupeKey: "manual:alpha:check:r" });
    const completed = await insertEpisode("completed");
    await insertClaim("manual:alpha:check:r");
    await insertClaim(claimKeyOf({ id: queued, dedupeKey: null }));
    await db.pool.query(
      `INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, source_node, status)
       VALUES ($1, 'alpha', 'check', 'web', 'pending')`,
      [running],
    );
    const bus = new MemoryBus();
    const events: BusEvent[] = [];
    bus.subscribe("episode.cancelled", (event) => void events.push(event));

    const results = await cancelEpisodes(
      { episodeIds: [queued, running, completed, UNKNOWN], reason: "by test", bus },
      db.pool,
    );

    expect(results.map((r) => r.kind)).toEqual(["cancelled", "cancelled", "conflict", "not_found"]);
    expect(results[2]).toMatchObject({ episode: { id: completed, status: "completed" } });
    expect(await episodeState(queued)).toMatchObject({
      status: "cancelled",
      queued_by: null,
      queued_at: null,
    });
    expect(await claimState("manual:alpha:check:r")).toBe("failed");
    expect(await claimState(`episode:${queued}`)).toBe("failed");
    const { rows } = await db.pool.query<{ status: string }>(
      "SELECT status FROM cyclium_trigger_requests WHERE episode_id = $1",
      [running],
    );
    expect(rows.map((r) => r.status)).toEqual(["completed"]);
    expect(events.map((e) => (e.payload as { episodeId: string }).episodeId).sort()).toEqual(
      [queued, running].sort(),
    );
    expect(events[0]?.payload).toMatchObject({ status: "cancelled", errorClass: "cancelled" });
  });

  it("is a no-op conflict for an already cancelled episode, publishing nothing", async () => {
    const id = await insertEpisode("cancelled");
    const bus = new MemoryBus();
    const events: BusEvent[] = [];
    bus.subscribe("episode.cancelled", (event) => void events.push(event));
    expect(await cancelEpisode({ episodeId: id, reason: "again", bus }, db.pool)).toMatchObject({
      kind: "conflict",
    });
    expect(events).toEqual([]);
  });
});

describe("retryEpisodes", () => {
  it("answers per id and hands each retried episode to a trigger request, with a wake-up", async () => {
    const failed = await insertEpisode("failed", { env: "staging" });
    const cancelled = await insertEpisode("cancelled", { queuedBy: "node-a" });
    const archived = await insertEpisode("failed", { archived: true });
    const running = await insertEpisode("running");
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const wakeups: string[] = [];
    listener.on("notification", (n) => {
      if (n.channel === TRIGGER_REQUESTS_CHANNEL) wakeups.push(n.payload ?? "");
    });
    await listener.query(`LISTEN ${TRIGGER_REQUESTS_CHANNEL}`);
    try {
      const results = await retryEpisodes(
        {
          episodeIds: [failed, cancelled, archived, running, UNKNOWN],
          by: "ops",
          sourceNode: "web",
        },
        db.pool,
      );
      expect(results.map((r) => r.kind)).toEqual([
        "retried",
        "retried",
        "conflict",
        "conflict",
        "not_found",
      ]);
      expect(await episodeState(cancelled)).toMatchObject({
        status: "pending",
        attempt: 2,
        queued_by: null,
      });
      const { rows } = await db.pool.query<{ episode_id: string; source_env: string | null }>(
        "SELECT episode_id, source_env FROM cyclium_trigger_requests WHERE status = 'pending'",
      );
      expect(rows.map((r) => r.episode_id).sort()).toEqual([failed, cancelled].sort());
      await expect
        .poll(() => [...wakeups].sort(), { timeout: 2_000 })
        .toEqual(
          [
            JSON.stringify({ stack: null, env: null }),
            JSON.stringify({ stack: null, env: "staging" }),
          ].sort(),
        );
    } finally {
      await listener.end();
    }
  });

  it("joins the caller's transaction: a rollback leaves the episode and writes no request", async () => {
    const id = await insertEpisode("failed");
    await expect(
      withTransaction(db.pool, async (tx) => {
        expect(
          await retryEpisode({ episodeId: id, by: "ops", sourceNode: "web" }, tx),
        ).toMatchObject({ kind: "retried" });
        throw new Error("audit failed");
      }),
    ).rejects.toThrow("audit failed");
    expect(await episodeState(id)).toMatchObject({ status: "failed", attempt: 1 });
    const { rowCount } = await db.pool.query("SELECT 1 FROM cyclium_trigger_requests");
    expect(rowCount).toBe(0);
  });
});

describe("archiveEpisodes", () => {
  it("archives finished episodes only, once", async () => {
    const completed = await insertEpisode("completed");
    const running = await insertEpisode("running");
    const archived = await insertEpisode("failed", { archived: true });
    const results = await archiveEpisodes(
      { episodeIds: [completed, running, archived, UNKNOWN] },
      db.pool,
    );
    expect(results.map((r) => r.kind)).toEqual(["archived", "conflict", "conflict", "not_found"]);
    expect((await episodeState(completed))?.archived_at).not.toBeNull();
    expect(await episodeState(running)).toMatchObject({ status: "running", archived_at: null });
  });
});
