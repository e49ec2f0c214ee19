import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireClaim, PostgresWorkClaims, type ClaimFence } from "../claims/index";
import { Telemetry, type TelemetryEvent } from "../telemetry/index";
import { appendStep } from "./append-step";
import { createEpisode } from "./create-episode";
import { finishEpisode } from "./finish-episode";

let db: TestDatabase;
let otherNode: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  otherNode = db.newPool({ max: 3 });
});

afterAll(async () => {
  await otherNode.end();
  await db.drop();
});

async function runningEpisode(key: string): Promise<string> {
  const created = await createEpisode(
    {
      actorId: "resource_monitor",
      expectationId: "check_limits",
      triggerType: "manual",
      dedupeKey: key,
      status: "running",
      sourceNode: "zombie",
      sourceStack: null,
      sourceEnv: null,
      jitterMs: 0,
      telemetry: new Telemetry(),
    },
    db.pool,
  );
  if (created.kind !== "created") throw new Error("episode not created");
  return created.episode.id;
}

async function fenceFor(
  claims: PostgresWorkClaims,
  key: string,
  owner: string,
  leaseSeconds: number,
) {
  const acquired = await claims.acquire({ dedupeKey: key, owner, leaseSeconds });
  if (!acquired.ok || !acquired.fence) throw new Error(`${owner} could not acquire ${key}`);
  return acquired.fence;
}

async function episodeState(id: string) {
  const { rows } = await db.pool.query<{
    status: string;
    result: unknown;
    turns_used: number;
    steps: number;
  }>(
    `SELECT status, result, turns_used,
            (SELECT count(*)::int FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS steps
       FROM cyclium_episodes e WHERE id = $1`,
    [id],
  );
  return rows[0];
}

describe("fenced episode writes", () => {
  it("rejects a zombie's step and completion after its claim was stolen", async () => {
    const telemetry = new Telemetry();
    const fenced: TelemetryEvent[] = [];
    telemetry.subscribe((event) => fenced.push(event), { events: ["cyclium.episode.fenced"] });
    const zombieClaims = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const thiefClaims = new PostgresWorkClaims({ db: otherNode, telemetry: new Telemetry() });
    const key = "manual:resource_monitor:check_limits:zombie";
    const episodeId = await runningEpisode(key);

    const zombie = await fenceFor(zombieClaims, key, "zombie", 1);
    const step = { episodeId, attempt: zombie.attempt, outcome: "continue", turns: 1, telemetry };
    expect(await appendStep({ ...step, fence: zombie, stepNo: 1 }, db.pool)).toMatchObject({
      kind: "written",
    });

    await sleep(1100);
    const thief = await fenceFor(thiefClaims, key, "thief", 60);
    expect(thief.attempt).toBe(2);

    // The zombie wakes up and tries to go on: nothing it writes lands.
    expect(await appendStep({ ...step, fence: zombie, stepNo: 2 }, db.pool)).toEqual({
      kind: "fenced",
    });
    expect(
      await finishEpisode(
        { episodeId, fence: zombie, status: "completed", result: { by: "zombie" }, telemetry },
        db.pool,
      ),
    ).toEqual({ kind: "fenced" });
    expect(await episodeState(episodeId)).toEqual({
      status: "running",
      result: null,
      turns_used: 1,
      steps: 1,
    });

    // The new owner's writes go through under its own attempt.
    expect(
      await appendStep(
        {
          episodeId,
          fence: thief,
          attempt: thief.attempt,
          stepNo: 1,
          outcome: "done",
          turns: 2,
          telemetry,
        },
        otherNode,
      ),
    ).toMatchObject({ kind: "written" });
    const done = await finishEpisode(
      {
        episodeId,
        fence: thief,
        status: "completed",
        result: { by: "thief" },
        executedBy: "thief",
        telemetry,
      },
      otherNode,
    );
    expect(done).toMatchObject({ kind: "finished", episode: { status: "completed" } });

    // A late zombie completion cannot overwrite the new owner's result either.
    expect(
      await finishEpisode(
        { episodeId, fence: zombie, status: "failed", errorClass: "x", telemetry },
        db.pool,
      ),
    ).toEqual({ kind: "fenced" });
    expect(await episodeState(episodeId)).toEqual({
      status: "completed",
      result: { by: "thief" },
      turns_used: 3,
      steps: 2,
    });
    expect(fenced).toHaveLength(3);
    expect(fenced[0]?.metadata).toMatchObject({
      dedupe_key: key,
      owner_node: "zombie",
      attempt: 1,
      write: "step",
      episode_id: episodeId,
    });
  });

  it("orders a zombie write that races an uncommitted steal after the steal", async () => {
    const claims = new PostgresWorkClaims({ db: db.pool, telemetry: new Telemetry() });
    const key = "manual:resource_monitor:check_limits:race";
    const episodeId = await runningEpisode(key);
    const zombie: ClaimFence = await fenceFor(claims, key, "zombie", 1);
    await sleep(1100);

    const thiefTx = await otherNode.connect();
    try {
      await thiefTx.query("BEGIN");
      expect(
        await acquireClaim({ dedupeKey: key, owner: "thief", leaseSeconds: 60 }, thiefTx),
      ).toEqual({
        attempt: 2,
        stolen: true,
        inserted: false,
      });
      // The zombie's write starts while the steal is in flight; it must wait for it, not slip in.
      const write = appendStep(
        {
          episodeId,
          fence: zombie,
          attempt: 1,
          stepNo: 1,
          outcome: "late",
          telemetry: new Telemetry(),
        },
        db.pool,
      );
      await sleep(200);
      await thiefTx.query("COMMIT");
      expect(await write).toEqual({ kind: "fenced" });
    } finally {
      thiefTx.release();
    }
    expect((await episodeState(episodeId))?.steps).toBe(0);
  });

  it("writes without a fence when claims are off, and reports a repeated step", async () => {
    const episodeId = await runningEpisode("manual:resource_monitor:check_limits:nofence");
    const step = { episodeId, fence: null, attempt: 1, stepNo: 1, outcome: "ok", tokens: 10 };
    expect(await appendStep(step, db.pool)).toMatchObject({ kind: "written" });
    expect(await appendStep(step, db.pool)).toEqual({ kind: "existed" });
    const finished = await finishEpisode(
      { episodeId, fence: null, status: "failed", errorClass: "boom" },
      db.pool,
    );
    expect(finished).toMatchObject({
      kind: "finished",
      episode: { status: "failed", errorClass: "boom", tokensUsed: 10 },
    });
    expect(await finishEpisode({ episodeId, fence: null, status: "completed" }, db.pool)).toEqual({
      kind: "not_running",
    });
  });
});
