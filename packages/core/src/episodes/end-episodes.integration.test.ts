import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BUS_CHANNEL, PgBus, type BusEvent } from "../bus/index";
import { decodeWireMessage } from "../bus/bus-wire-format";
import { spyQueryable } from "../db/testing/index";
import type { ClaimFence } from "../claims/index";
import { endEpisodes, type EpisodeEnd } from "./end-episodes";
import { startEpisodes } from "./start-episodes";
import { createManualEpisode } from "./testing/index";

let db: TestDatabase;
let serial = 0;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** A running episode with its claim held by n1 and a claimed trigger request. */
async function runningEpisode(): Promise<{ id: string; fence: ClaimFence; requestId: string }> {
  serial += 1;
  const key = `manual:a:run:${serial}`;
  const { id } = await createManualEpisode(db.pool, { dedupeKey: key });
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_trigger_requests
       (episode_id, actor_id, expectation_id, status, claimed_by, claimed_at)
     VALUES ($1, 'a', 'run', 'claimed', 'n1', now()) RETURNING id::text`,
    [id],
  );
  const [started] = await startEpisodes(
    { owner: "n1", leaseSeconds: 60, episodes: [{ episodeId: id, claimKey: key }] },
    db.pool,
  );
  if (started?.kind !== "started") throw new Error("not started");
  return {
    id,
    fence: { dedupeKey: key, owner: "n1", attempt: started.attempt },
    requestId: rows[0]?.id ?? "",
  };
}

async function state(episode: { id: string; fence: ClaimFence; requestId: string }) {
  const { rows } = await db.pool.query<{
    status: string;
    result: unknown;
    turns_used: number;
    steps: number;
    claim: string;
    request: string;
  }>(
    `SELECT e.status, e.result, e.turns_used,
            (SELECT count(*)::int FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS steps,
            (SELECT state FROM cyclium_work_claims WHERE dedupe_key = $2) AS claim,
            (SELECT status FROM cyclium_trigger_requests WHERE id = $3) AS request
       FROM cyclium_episodes e WHERE e.id = $1`,
    [episode.id, episode.fence.dedupeKey, episode.requestId],
  );
  return rows[0];
}

function end(
  episode: { id: string; fence: ClaimFence; requestId: string },
  extra: Partial<EpisodeEnd> = {},
): EpisodeEnd {
  return {
    episodeId: episode.id,
    fence: episode.fence,
    status: "completed",
    result: { ok: true },
    finalStep: {
      attempt: episode.fence.attempt,
      stepNo: 1,
      outcome: "done",
      data: null,
      turns: 2,
      tokens: 5,
      durationMs: 1.4,
    },
    triggerRequestId: episode.requestId,
    ...extra,
  };
}

describe("endEpisodes", () => {
  it("writes step, status, claim, request and event of a batch in one statement", async () => {
    const listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    const received: string[] = [];
    listener.on("notification", (message) => received.push(message.payload ?? ""));
    await listener.query("LISTEN end_episodes_test");
    try {
      const a = await runningEpisode();
      const b = await runningEpisode();
      const outcomes = await endEpisodes(
        {
          node: "n1",
          ends: [
            end(a, { notify: { channel: "end_episodes_test", payload: `ended ${a.id}` } }),
            end(b, {
              status: "failed",
              result: undefined,
              errorClass: "boom",
              errorMessage: "it broke",
              notify: { channel: "end_episodes_test", payload: `ended ${b.id}` },
            }),
          ],
        },
        db.pool,
      );
      expect(outcomes[0]).toMatchObject({ kind: "ended", episode: { status: "completed" } });
      expect(outcomes[1]).toMatchObject({
        kind: "ended",
        episode: { status: "failed", errorClass: "boom" },
      });
      // The reply is slim (no payloads): the message is on the row.
      expect(outcomes[1]).not.toHaveProperty("episode.errorMessage");
      const { rows } = await db.pool.query<{ error_message: string }>(
        "SELECT error_message FROM cyclium_episodes WHERE id = $1",
        [b.id],
      );
      expect(rows[0]?.error_message).toBe("it broke");
      expect(await state(a)).toEqual({
        status: "completed",
        result: { ok: true },
        turns_used: 2,
        steps: 1,
        claim: "done",
        request: "completed",
      });
      expect(await state(b)).toMatchObject({ status: "failed", claim: "done", steps: 1 });
      await expect.poll(() => received.sort()).toEqual([`ended ${a.id}`, `ended ${b.id}`].sort());
    } finally {
      await listener.end();
    }
  });

  it("writes nothing for a zombie whose claim moved on", async () => {
    const episode = await runningEpisode();
    await db.pool.query(
      "UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1 WHERE dedupe_key = $1",
      [episode.fence.dedupeKey],
    );
    const [outcome] = await endEpisodes({ node: "n1", ends: [end(episode)] }, db.pool);
    expect(outcome).toEqual({ kind: "fenced" });
    expect(await state(episode)).toEqual({
      status: "running",
      result: null,
      turns_used: 0,
      steps: 0,
      claim: "claimed",
      request: "claimed",
    });
  });

  it("leaves an episode cancelled meanwhile alone but frees its claim and request", async () => {
    const episode = await runningEpisode();
    await db.pool.query("UPDATE cyclium_episodes SET status = 'cancelled' WHERE id = $1", [
      episode.id,
    ]);
    const [outcome] = await endEpisodes(
      { node: "n1", ends: [end(episode, { notify: { channel: "never", payload: "x" } })] },
      db.pool,
    );
    expect(outcome).toEqual({ kind: "not_running" });
    expect(await state(episode)).toMatchObject({
      status: "cancelled",
      steps: 1,
      claim: "done",
      request: "completed",
    });
  });

  it("journals a fenced end's final step by a plain insert, and keeps an entry found there", async () => {
    const plain = await runningEpisode();
    const found = await runningEpisode();
    // The journal already holds `found`'s final step: never written by a fenced run's own end,
    // but the batch must still end (and `plain` with it) without counting its usage twice.
    await db.pool.query(
      `INSERT INTO cyclium_episode_steps (episode_id, attempt, step_no, outcome, turns, tokens)
       VALUES ($1, $2, 1, 'earlier', 7, 0)`,
      [found.id, found.fence.attempt],
    );
    const spy = spyQueryable(db.pool);
    const outcomes = await endEpisodes({ node: "n1", ends: [end(plain), end(found)] }, spy);
    expect(outcomes.map((o) => o.kind)).toEqual(["ended", "ended"]);
    // The first send's plain insert met the key; the resend journaled with ON CONFLICT.
    expect(spy.calls.map((call) => call.text.includes("ON CONFLICT (episode_id"))).toEqual([
      false,
      true,
    ]);
    expect(await state(plain)).toMatchObject({ status: "completed", turns_used: 2, steps: 1 });
    expect(await state(found)).toMatchObject({ status: "completed", turns_used: 0, steps: 1 });
    const { rows } = await db.pool.query<{ outcome: string }>(
      "SELECT outcome FROM cyclium_episode_steps WHERE episode_id = $1",
      [found.id],
    );
    expect(rows).toEqual([{ outcome: "earlier" }]);
    // Without such an entry one statement ends the batch.
    const next = await runningEpisode();
    const once = spyQueryable(db.pool);
    await endEpisodes({ node: "n1", ends: [end(next)] }, once);
    expect(once.calls).toHaveLength(1);
    expect(await state(next)).toMatchObject({ status: "completed", turns_used: 2, steps: 1 });
  });

  it("ends an episode without a claim when claims are off", async () => {
    const episode = await runningEpisode();
    const [outcome] = await endEpisodes(
      { node: "n1", ends: [end(episode, { fence: null, triggerRequestId: undefined })] },
      db.pool,
    );
    expect(outcome).toMatchObject({ kind: "ended" });
    expect(await state(episode)).toMatchObject({
      status: "completed",
      claim: "claimed",
      request: "claimed",
    });
  });

  it("sends a batch's bus events in its one statement as one plain notification per event, in order, each once", async () => {
    // The receiving node: a bus on its own connection.
    const bus = await PgBus.start({ db: db.pool, connection: db.url, cleanup: false });
    const delivered: BusEvent[] = [];
    bus.subscribe("episode.completed", (event) => void delivered.push(event));
    const markers: BusEvent[] = [];
    bus.subscribe("test.marker", (event) => void markers.push(event));
    // A bare LISTEN on a third connection: what a node of an earlier release sees on the wire.
    const raw = new pg.Client({ connectionString: db.url });
    await raw.connect();
    const notifications: string[] = [];
    raw.on("notification", (message) => notifications.push(message.payload ?? ""));
    await raw.query(`LISTEN ${BUS_CHANNEL}`);
    try {
      const episodes = await Promise.all(Array.from({ length: 30 }, () => runningEpisode()));
      // One in the middle is a zombie's: fenced, so its event must not go out.
      const zombie = episodes[17]!;
      await db.pool.query(
        "UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1 WHERE dedupe_key = $1",
        [zombie.fence.dedupeKey],
      );
      const ends = episodes.map((episode) => {
        const notify = bus.inlineNotification("episode.completed", { episodeId: episode.id });
        if (notify === undefined) throw new Error("no inline notification");
        return end(episode, { notify });
      });
      const spy = spyQueryable(db.pool);
      const outcomes = await endEpisodes({ node: "n1", ends }, spy);
      expect(spy.calls).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome.kind === "ended")).toHaveLength(29);

      // Notifications arrive in commit order: once the marker is in, every event the end
      // statement sent has arrived too, and nothing more of it will.
      const marker = await bus.publish("test.marker", {});
      await vi.waitFor(() => expect(markers.map((event) => event.id)).toContain(marker.id), {
        timeout: 20_000,
      });
      await vi.waitFor(() => expect(notifications.join("")).toContain(marker.id), {
        timeout: 20_000,
      });

      const ended = episodes.filter((episode) => episode !== zombie).map((episode) => episode.id);
      const episodeIdOf = (event: BusEvent) => (event.payload as { episodeId: string }).episodeId;
      expect(delivered.map(episodeIdOf)).toEqual(ended);
      // On the wire: one notification per event, each a plain inline event, in the batch's order.
      const onWire = notifications.slice(0, -1).map((payload) => {
        const message = decodeWireMessage(payload);
        if (message?.kind !== "inline") throw new Error(`not a plain bus event: ${payload}`);
        return message.event;
      });
      expect(onWire.map(episodeIdOf)).toEqual(ended);
      expect(onWire.map((event) => event.id)).toEqual(delivered.map((event) => event.id));
      expect(notifications.join("")).not.toContain(zombie.id);
    } finally {
      await raw.end();
      await bus.close();
    }
  });
});
