import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClaimFence } from "../claims/index";
import { writeOutput } from "../outputs/write-output";
import { saveCheckpoint } from "../runtime/checkpoints/save-checkpoint";
import { appendStep } from "./append-step";
import { handBackEpisodes } from "./hand-back-episodes";
import { startEpisodes } from "./start-episodes";
import { createManualEpisode } from "./testing/index";

let db: TestDatabase;
let serial = 0;
const WAKE = { channel: "hand_back_episodes_test", payload: "{}" };

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** An episode `owner` started (claim held, `running`), from a request it claimed if asked. */
async function startedEpisode(owner: string, options: { dispatched: boolean }) {
  serial += 1;
  const key = `manual:a:run:hb${serial}`;
  const { id } = await createManualEpisode(db.pool, { dedupeKey: key });
  let requestId: string | undefined;
  if (options.dispatched) {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO cyclium_trigger_requests
         (episode_id, actor_id, expectation_id, status, claimed_by, claimed_at)
       VALUES ($1, 'a', 'run', 'claimed', $2, now()) RETURNING id::text`,
      [id, owner],
    );
    requestId = rows[0]?.id;
  }
  const fence = await start(owner, id, key);
  return { id, key, fence, requestId };
}

async function start(owner: string, id: string, key: string): Promise<ClaimFence> {
  const [started] = await startEpisodes(
    { owner, leaseSeconds: 60, episodes: [{ episodeId: id, claimKey: key }] },
    db.pool,
  );
  if (started?.kind !== "started") throw new Error(`not started: ${started?.kind}`);
  return { dedupeKey: key, owner, attempt: started.attempt };
}

describe("handBackEpisodes", () => {
  it("puts a running episode back to pending at attempt + 1 with a new request, claim released", async () => {
    const episode = await startedEpisode("n1", { dispatched: true });
    const [outcome] = await handBackEpisodes(
      {
        node: "n1",
        episodes: [
          {
            episodeId: episode.id,
            fence: episode.fence,
            stepsDone: 2,
            ...(episode.requestId === undefined ? {} : { triggerRequestId: episode.requestId }),
          },
        ],
        wake: WAKE,
      },
      db.pool,
    );
    expect(outcome).toEqual({ kind: "handed_back" });
    const row = await db.pool.query(
      `SELECT status, attempt, executed_by, started_at, recovery_history->-1 AS entry
         FROM cyclium_episodes WHERE id = $1`,
      [episode.id],
    );
    expect(row.rows[0]).toMatchObject({
      status: "pending",
      attempt: 2,
      executed_by: null,
      started_at: null,
      entry: { node: "n1", outcome: "handed_back", steps_done: 2, attempt: 2 },
    });
    const claim = await db.pool.query(
      "SELECT state FROM cyclium_work_claims WHERE dedupe_key = $1",
      [episode.key],
    );
    expect(claim.rows).toEqual([{ state: "done" }]);
    const requests = await db.pool.query(
      "SELECT status, opts FROM cyclium_trigger_requests WHERE episode_id = $1 ORDER BY id",
      [episode.id],
    );
    expect(requests.rows).toEqual([
      { status: "completed", opts: {} },
      { status: "pending", opts: { recovered: true } },
    ]);
  });

  it("refuses every late write of the old attempt once another node has taken the episode", async () => {
    const episode = await startedEpisode("n1", { dispatched: false });
    await handBackEpisodes(
      {
        node: "n1",
        episodes: [{ episodeId: episode.id, fence: episode.fence, stepsDone: null }],
        wake: WAKE,
      },
      db.pool,
    );
    // Fenced even before anyone takes it over: the claim is released.
    const early = await saveCheckpoint(
      {
        episodeId: episode.id,
        fence: episode.fence,
        number: 3,
        phase: "late",
        schemaVersion: 1,
        state: {},
      },
      db.pool,
    );
    expect(early).toEqual({ saved: false });

    const taken = await start("n2", episode.id, episode.key);
    expect(taken.attempt).toBe(episode.fence.attempt + 1);
    const old = episode.fence;
    const step = await appendStep(
      { episodeId: episode.id, fence: old, attempt: old.attempt, stepNo: 3, outcome: "continue" },
      db.pool,
    );
    expect(step.kind).toBe("fenced");
    const output = await writeOutput(
      {
        outputKey: `late:${episode.id}`,
        episode: { id: episode.id, actorId: "a", sourceEnv: null },
        attempt: old.attempt,
        value: 1,
        fence: old,
      },
      db.pool,
    );
    expect(output).toEqual({ kind: "fenced" });
    // A second hand-back by the old owner changes nothing.
    const [again] = await handBackEpisodes(
      { node: "n1", episodes: [{ episodeId: episode.id, fence: old, stepsDone: 1 }], wake: WAKE },
      db.pool,
    );
    expect(again).toEqual({ kind: "fenced" });
    const row = await db.pool.query(
      "SELECT status, executed_by FROM cyclium_episodes WHERE id = $1",
      [episode.id],
    );
    expect(row.rows).toEqual([{ status: "running", executed_by: "n2" }]);
  });
});
