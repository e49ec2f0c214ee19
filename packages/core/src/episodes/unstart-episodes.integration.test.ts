import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresWorkClaims, type ClaimFence } from "../claims/index";
import { startEpisodes } from "./start-episodes";
import { unstartEpisodes, type EpisodeUnstart } from "./unstart-episodes";
import { createManualEpisode } from "./testing/index";

let db: TestDatabase;
let serial = 0;
const WAKE = { channel: "unstart_episodes_test", payload: "{}" };

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

interface Started {
  id: string;
  fence: ClaimFence;
  requestId?: string;
}

/** An episode n1 started (claim held, `running`); `dispatched`: from a request n1 claimed. */
async function startedEpisode(options: { dispatched: boolean }): Promise<Started> {
  serial += 1;
  const key = `manual:a:run:${serial}`;
  const { id } = await createManualEpisode(db.pool, { dedupeKey: key });
  let requestId: string | undefined;
  if (options.dispatched) {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO cyclium_trigger_requests
         (episode_id, actor_id, expectation_id, status, claimed_by, claimed_at)
       VALUES ($1, 'a', 'run', 'claimed', 'n1', now()) RETURNING id::text`,
      [id],
    );
    requestId = rows[0]?.id;
  } else {
    await db.pool.query(
      "UPDATE cyclium_episodes SET queued_by = 'n1', queued_at = now() WHERE id = $1",
      [id],
    );
  }
  const [started] = await startEpisodes(
    { owner: "n1", leaseSeconds: 60, episodes: [{ episodeId: id, claimKey: key }] },
    db.pool,
  );
  if (started?.kind !== "started") throw new Error("not started");
  const fence = { dedupeKey: key, owner: "n1", attempt: started.attempt };
  return requestId === undefined ? { id, fence } : { id, fence, requestId };
}

function unstart(episode: Started, extra: Partial<EpisodeUnstart> = {}): EpisodeUnstart {
  return {
    episodeId: episode.id,
    fence: episode.fence,
    ...(episode.requestId === undefined ? {} : { triggerRequestId: episode.requestId }),
    ...extra,
  };
}

/** What a user and the other nodes see of the episode, its claim and its trigger requests. */
async function seen(episode: Started) {
  const { rows } = await db.pool.query<Record<string, unknown>>(
    `SELECT e.status, e.started_at, e.executed_by, e.queued_by, e.attempt, e.phase,
            e.recovery_history,
            (SELECT row_to_json(c) FROM (SELECT state, owner_node, attempt FROM cyclium_work_claims
                                          WHERE dedupe_key = $2) c) AS claim,
            (SELECT coalesce(json_agg(json_build_object('status', r.status, 'claimed_by', r.claimed_by, 'opts', r.opts) ORDER BY r.id), '[]'::json)
               FROM (SELECT id, status, claimed_by, opts FROM cyclium_trigger_requests
                      WHERE episode_id = e.id) r) AS requests
       FROM cyclium_episodes e WHERE e.id = $1`,
    [episode.id, episode.fence.dedupeKey],
  );
  return rows[0];
}

describe("unstartEpisodes", () => {
  it("puts a batch back to pending, claims released, each owned by a pending request", async () => {
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const woken: string[] = [];
    listener.on("notification", (message) => woken.push(message.channel));
    await listener.query(`LISTEN ${WAKE.channel}`);
    try {
      const dispatched = await startedEpisode({ dispatched: true });
      const queued = await startedEpisode({ dispatched: false });
      const outcomes = await unstartEpisodes(
        {
          node: "n1",
          episodes: [unstart(dispatched), unstart(queued, { requestOpts: { recovered: true } })],
          wake: WAKE,
        },
        db.pool,
      );
      expect(outcomes).toEqual([
        { kind: "unstarted", request: "released" },
        { kind: "unstarted", request: "requested" },
      ]);
      const never = {
        status: "pending",
        started_at: null,
        executed_by: null,
        queued_by: null,
        attempt: 1,
        phase: null,
        recovery_history: [],
        claim: { state: "done", owner_node: "n1", attempt: 1 },
      };
      expect(await seen(dispatched)).toEqual({
        ...never,
        requests: [{ status: "pending", claimed_by: null, opts: {} }],
      });
      expect(await seen(queued)).toEqual({
        ...never,
        requests: [{ status: "pending", claimed_by: null, opts: { recovered: true } }],
      });
      await expect.poll(() => woken.length).toBeGreaterThan(0);

      // Any node's next acquire is a take-over at attempt + 1, not a steal.
      const acquired = await new PostgresWorkClaims({ db: db.pool }).acquire({
        dedupeKey: dispatched.fence.dedupeKey,
        owner: "n2",
        leaseSeconds: 60,
      });
      expect(acquired).toMatchObject({ ok: true, attempt: 2, stolen: false });
      const [restarted] = await startEpisodes(
        {
          owner: "n2",
          leaseSeconds: 60,
          episodes: [{ episodeId: queued.id, claimKey: queued.fence.dedupeKey }],
        },
        db.pool,
      );
      expect(restarted).toMatchObject({
        kind: "started",
        attempt: 2,
        episode: { executedBy: "n2" },
      });
    } finally {
      await listener.end();
    }
  });

  it("changes nothing when the claim is no longer this attempt's (a zombie)", async () => {
    const stolen = await startedEpisode({ dispatched: true });
    const queued = await startedEpisode({ dispatched: false });
    // Another node took both over meanwhile (as recovery's steal does: attempt + 1).
    await db.pool.query(
      `UPDATE cyclium_work_claims SET owner_node = 'n2', attempt = attempt + 1
        WHERE dedupe_key = ANY($1::text[])`,
      [[stolen.fence.dedupeKey, queued.fence.dedupeKey]],
    );
    const before = [await seen(stolen), await seen(queued)];
    const outcomes = await unstartEpisodes(
      { node: "n1", episodes: [unstart(stolen), unstart(queued)], wake: WAKE },
      db.pool,
    );
    expect(outcomes).toEqual([{ kind: "fenced" }, { kind: "fenced" }]);
    expect([await seen(stolen), await seen(queued)]).toEqual(before);
    expect(before[0]).toMatchObject({
      status: "running",
      executed_by: "n1",
      claim: { state: "claimed", owner_node: "n2", attempt: 2 },
      requests: [{ status: "claimed", claimed_by: "n1" }],
    });
  });

  it("changes nothing at a stale attempt once the claim was released and taken again", async () => {
    const episode = await startedEpisode({ dispatched: false });
    const [first] = await unstartEpisodes(
      { node: "n1", episodes: [unstart(episode)], wake: WAKE },
      db.pool,
    );
    expect(first?.kind).toBe("unstarted");
    // n1 itself starts it again (attempt 2); a late unstart of attempt 1 is a zombie's.
    const [again] = await startEpisodes(
      {
        owner: "n1",
        leaseSeconds: 60,
        episodes: [{ episodeId: episode.id, claimKey: episode.fence.dedupeKey }],
      },
      db.pool,
    );
    expect(again).toMatchObject({ kind: "started", attempt: 2 });
    const before = await seen(episode);
    const [late] = await unstartEpisodes(
      { node: "n1", episodes: [unstart(episode)], wake: WAKE },
      db.pool,
    );
    expect(late).toEqual({ kind: "fenced" });
    expect(await seen(episode)).toEqual(before);
    expect(before).toMatchObject({ status: "running", claim: { state: "claimed", attempt: 2 } });
  });

  it("only releases the claim of an episode cancelled while it waited", async () => {
    const episode = await startedEpisode({ dispatched: true });
    await db.pool.query("UPDATE cyclium_episodes SET status = 'cancelled' WHERE id = $1", [
      episode.id,
    ]);
    const [outcome] = await unstartEpisodes(
      { node: "n1", episodes: [unstart(episode)], wake: WAKE },
      db.pool,
    );
    expect(outcome).toEqual({ kind: "not_running" });
    expect(await seen(episode)).toMatchObject({
      status: "cancelled",
      claim: { state: "done" },
      // Settled by its dispatcher as for any episode that did not run to its end here.
      requests: [{ status: "claimed", claimed_by: "n1" }],
    });
  });
});
