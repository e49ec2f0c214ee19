import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireClaim } from "../claims/index";
import { createManualEpisode } from "./testing/index";
import { startEpisodes } from "./start-episodes";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

let serial = 0;

async function pendingEpisode(): Promise<{ episodeId: string; claimKey: string }> {
  serial += 1;
  const claimKey = `manual:bench:run:${serial}`;
  const episode = await createManualEpisode(db.pool, { dedupeKey: claimKey, actorId: "bench" });
  return { episodeId: episode.id, claimKey };
}

async function claimOf(key: string) {
  const { rows } = await db.pool.query<{ state: string; owner_node: string; attempt: number }>(
    "SELECT state, owner_node, attempt FROM cyclium_work_claims WHERE dedupe_key = $1",
    [key],
  );
  return rows[0];
}

async function statusOf(episodeId: string) {
  const { rows } = await db.pool.query<{ status: string; executed_by: string | null }>(
    "SELECT status, executed_by FROM cyclium_episodes WHERE id = $1",
    [episodeId],
  );
  return rows[0];
}

const lease = { owner: "n1", leaseSeconds: 60 };

describe("startEpisodes", () => {
  it("claims and starts a batch in one statement, in input order", async () => {
    const batch = [await pendingEpisode(), await pendingEpisode(), await pendingEpisode()];
    const outcomes = await startEpisodes({ ...lease, episodes: batch }, db.pool);
    expect(outcomes.map((o) => o.kind)).toEqual(["started", "started", "started"]);
    for (const [index, outcome] of outcomes.entries()) {
      const entry = batch[index];
      if (outcome.kind !== "started" || entry === undefined) throw new Error("not started");
      expect(outcome).toMatchObject({ attempt: 1, episode: { id: entry.episodeId } });
      expect(outcome.episode).toMatchObject({ status: "running", executedBy: "n1" });
      expect(await claimOf(entry.claimKey)).toEqual({
        state: "claimed",
        owner_node: "n1",
        attempt: 1,
      });
    }
  });

  it("takes over a done claim with the next attempt", async () => {
    const entry = await pendingEpisode();
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, attempt)
       VALUES ($1, 'done', 'earlier', now(), 3)`,
      [entry.claimKey],
    );
    const [outcome] = await startEpisodes({ ...lease, episodes: [entry] }, db.pool);
    expect(outcome).toMatchObject({ kind: "started", attempt: 4 });
  });

  it("leaves held claims alone, live or lapsed, for the one-episode acquire", async () => {
    const live = await pendingEpisode();
    const lapsed = await pendingEpisode();
    await acquireClaim({ dedupeKey: live.claimKey, owner: "other", leaseSeconds: 60 }, db.pool);
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until)
       VALUES ($1, 'claimed', 'dead', now() - interval '1 minute')`,
      [lapsed.claimKey],
    );
    const outcomes = await startEpisodes({ ...lease, episodes: [live, lapsed] }, db.pool);
    expect(outcomes).toEqual([{ kind: "contended" }, { kind: "contended" }]);
    expect(await claimOf(live.claimKey)).toMatchObject({ owner_node: "other", attempt: 1 });
    expect(await claimOf(lapsed.claimKey)).toMatchObject({ owner_node: "dead", attempt: 1 });
    expect((await statusOf(live.episodeId))?.status).toBe("pending");
  });

  it("starts nothing that is not pending, and takes no claim for it", async () => {
    const cancelled = await pendingEpisode();
    const archived = await pendingEpisode();
    await db.pool.query("UPDATE cyclium_episodes SET status = 'cancelled' WHERE id = $1", [
      cancelled.episodeId,
    ]);
    await db.pool.query("UPDATE cyclium_episodes SET archived_at = now() WHERE id = $1", [
      archived.episodeId,
    ]);
    const missing = { episodeId: "00000000-0000-4000-8000-000000000000", claimKey: "k:missing" };
    const outcomes = await startEpisodes(
      { ...lease, episodes: [cancelled, archived, missing] },
      db.pool,
    );
    expect(outcomes).toEqual([
      { kind: "not_pending", claimAttempt: null },
      { kind: "not_pending", claimAttempt: null },
      { kind: "not_pending", claimAttempt: null },
    ]);
    expect(await claimOf(cancelled.claimKey)).toBeUndefined();
  });

  it("lets exactly one of two nodes start an episode both try to start at once", async () => {
    const other = db.newPool({ max: 2 });
    try {
      const batch = await Promise.all(Array.from({ length: 20 }, () => pendingEpisode()));
      const [a, b] = await Promise.all([
        startEpisodes({ owner: "a", leaseSeconds: 60, episodes: batch }, db.pool),
        startEpisodes({ owner: "b", leaseSeconds: 60, episodes: [...batch].reverse() }, other),
      ]);
      const startedBy = new Map<string, string[]>();
      for (const [owner, outcomes, entries] of [
        ["a", a, batch],
        ["b", b, [...batch].reverse()],
      ] as const) {
        outcomes.forEach((outcome, index) => {
          const id = entries[index]?.episodeId ?? "";
          if (outcome.kind === "started") startedBy.set(id, [...(startedBy.get(id) ?? []), owner]);
        });
      }
      for (const { episodeId } of batch) {
        const owners = startedBy.get(episodeId) ?? [];
        expect(owners).toHaveLength(1);
        expect((await statusOf(episodeId))?.executed_by).toBe(owners[0]);
      }
    } finally {
      await other.end();
    }
  });
});
