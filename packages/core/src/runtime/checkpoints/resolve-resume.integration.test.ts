import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnyStrategy } from "../../actors/index";
import { createEpisode } from "../../episodes/index";
import { silentLogger, Telemetry } from "../../telemetry/index";
import { resolveResume } from "./resolve-resume";
import { saveCheckpoint } from "./save-checkpoint";

// Checkpoint schema versions: migrate when the strategy can, else run init again, recorded.
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function episodeWithCheckpoint(schemaVersion: number): Promise<string> {
  const created = await createEpisode(
    {
      actorId: "a",
      expectationId: "e",
      triggerType: "manual",
      dedupeKey: null,
      input: {},
      status: "running",
      sourceNode: "n",
      sourceStack: null,
      sourceEnv: null,
      jitterMs: 0,
      logger: silentLogger,
      telemetry: new Telemetry(),
    },
    db.pool,
  );
  if (created.kind !== "created") throw new Error("not created");
  const id = created.episode.id;
  await saveCheckpoint(
    { episodeId: id, fence: null, number: 2, phase: "p", schemaVersion, state: { n: 2 } },
    db.pool,
  );
  return id;
}

const base = { init: () => null, step: () => ({ done: true as const }) };
const resolve = (episodeId: string, strategy: AnyStrategy) =>
  resolveResume(
    { episodeId, strategy, fence: null, nodeIdentity: "n", attempt: 2, logger: silentLogger },
    db.pool,
  );
const history = async (id: string) =>
  (
    await db.pool.query<{ h: Record<string, unknown>[] }>(
      `SELECT recovery_history AS h FROM cyclium_episodes WHERE id = $1`,
      [id],
    )
  ).rows[0]?.h;

describe("resolveResume", () => {
  it("resumes from the newest checkpoint of the strategy's version", async () => {
    const id = await episodeWithCheckpoint(1);
    expect(await resolve(id, base)).toEqual({ checkpointNumber: 2, phase: "p", state: { n: 2 } });
    expect(await history(id)).toEqual([
      expect.objectContaining({ outcome: "resumed_from_checkpoint", checkpoint: 2 }),
    ]);
  });

  it("migrates an older version when the strategy can", async () => {
    const id = await episodeWithCheckpoint(1);
    const strategy: AnyStrategy = {
      ...base,
      checkpointVersion: 2,
      migrateCheckpoint: (state, from) => ({ migratedFrom: from, state }),
    };
    expect(await resolve(id, strategy)).toMatchObject({
      state: { migratedFrom: 1, state: { n: 2 } },
    });
  });

  it("falls back to init when the version cannot be migrated, and records why", async () => {
    const id = await episodeWithCheckpoint(1);
    expect(await resolve(id, { ...base, checkpointVersion: 3 })).toBeUndefined();
    expect(await history(id)).toEqual([
      expect.objectContaining({
        outcome: "checkpoint_discarded",
        reason: expect.stringContaining("no migrateCheckpoint") as unknown,
      }),
    ]);
  });
});
