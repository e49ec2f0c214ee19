import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresWorkClaims } from "../claims/index";
import { endEpisodes, type EpisodeEnd } from "./end-episodes";
import { startEpisode } from "./start-episode";
import { startEpisodes } from "./start-episodes";
import { createManualEpisode } from "./testing/index";

// What a write resent after an ambiguous commit (the statement committed, its reply was lost)
// must come to: its own earlier commit is recognised, nothing is written twice, and nobody else's
// claim is mistaken for it.

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function pendingEpisode(): Promise<{ id: string; key: string }> {
  const key = `manual:a:run:${randomUUID()}`;
  const { id } = await createManualEpisode(db.pool, { dedupeKey: key });
  return { id, key };
}

describe("a resent start", () => {
  it("of the batched start is answered started at the attempt its first send took", async () => {
    const { id, key } = await pendingEpisode();
    const input = { owner: "n1", leaseSeconds: 60, episodes: [{ episodeId: id, claimKey: key }] };
    const [first] = await startEpisodes(input, db.pool);
    expect(first).toMatchObject({ kind: "started", attempt: 1 });

    // Sent again as a first send, it is someone else's start: not pending any more.
    const [again] = await startEpisodes(input, db.pool);
    expect(again).toEqual({ kind: "not_pending", claimAttempt: null });
    // As a resend by the same node, it is its own earlier start.
    const resent = { ...input, episodes: [{ episodeId: id, claimKey: key, resend: true }] };
    const [own] = await startEpisodes(resent, db.pool);
    expect(own).toMatchObject({ kind: "started", attempt: 1, episode: { id, status: "running" } });
    // Another node's resend does not adopt n1's run.
    const [other] = await startEpisodes({ ...resent, owner: "n2" }, db.pool);
    expect(other?.kind).toBe("not_pending");
  });

  it("of the one-episode start is answered started only under the writer's own attempt", async () => {
    const { id, key } = await pendingEpisode();
    const claims = new PostgresWorkClaims({ db: db.pool });
    const acquired = await claims.acquire({ dedupeKey: key, owner: "n1", leaseSeconds: 60 });
    if (!acquired.ok) throw new Error("not acquired");
    const fence = { dedupeKey: key, owner: "n1", attempt: acquired.attempt };
    const options = { episodeId: id, fence, executedBy: "n1" };
    expect(await startEpisode(options, db.pool)).toMatchObject({ kind: "started" });
    expect(await startEpisode(options, db.pool)).toEqual({
      kind: "not_pending",
    });
    expect(await startEpisode({ ...options, resend: true }, db.pool)).toMatchObject({
      kind: "started",
      episode: { id, status: "running" },
    });
    const stale = { ...fence, attempt: fence.attempt + 1 };
    expect(await startEpisode({ ...options, fence: stale, resend: true }, db.pool)).toEqual({
      kind: "fenced",
    });
  });
});

describe("a resent end", () => {
  it("is answered ended, writes nothing again and sends no second NOTIFY", async () => {
    const { id, key } = await pendingEpisode();
    const [started] = await startEpisodes(
      { owner: "n1", leaseSeconds: 60, episodes: [{ episodeId: id, claimKey: key }] },
      db.pool,
    );
    if (started?.kind !== "started") throw new Error("not started");
    const channel = `resent_end_${randomUUID().replace(/-/g, "")}`;
    const end: EpisodeEnd = {
      episodeId: id,
      fence: { dedupeKey: key, owner: "n1", attempt: started.attempt },
      status: "completed",
      result: { ok: true },
      finalStep: {
        attempt: started.attempt,
        stepNo: 1,
        outcome: "done",
        data: null,
        turns: 2,
        tokens: 5,
        durationMs: 3,
      },
      notify: { channel, payload: "ended" },
    };
    const listener = await db.pool.connect();
    const notifications: string[] = [];
    listener.on("notification", (message) => notifications.push(message.payload ?? ""));
    try {
      await listener.query(`LISTEN ${channel}`);
      const [first] = await endEpisodes({ node: "n1", ends: [end] }, db.pool);
      expect(first).toMatchObject({ kind: "ended", episode: { status: "completed" } });
      expect(first).not.toHaveProperty("alreadyEnded");
      const [resent] = await endEpisodes({ node: "n1", ends: [end] }, db.pool);
      expect(resent).toMatchObject({
        kind: "ended",
        alreadyEnded: true,
        episode: { id, status: "completed", turnsUsed: 2 },
      });
      // A round trip on the listening connection delivers whatever NOTIFY was pending.
      await listener.query("SELECT 1");
      expect(notifications).toEqual(["ended"]);
      const { rows } = await db.pool.query<{ steps: number; turns_used: number }>(
        `SELECT (SELECT count(*)::int FROM cyclium_episode_steps WHERE episode_id = $1) AS steps,
                turns_used FROM cyclium_episodes WHERE id = $1`,
        [id],
      );
      expect(rows[0]).toEqual({ steps: 1, turns_used: 2 });

      // A zombie of an older attempt is still fenced, not taken for the end's author.
      const zombie = { ...end, fence: { dedupeKey: key, owner: "n1", attempt: 0 } };
      expect(await endEpisodes({ node: "n1", ends: [zombie] }, db.pool)).toEqual([
        { kind: "fenced" },
      ]);
    } finally {
      await listener.query(`UNLISTEN ${channel}`).catch(() => undefined);
      listener.release();
    }
  });
});
