import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openClients } from "../db/testing/index";
import { withTransaction } from "../db/index";
import { Telemetry, type Logger, type TelemetryEvent } from "../telemetry/index";
import { createEpisode, type CreateEpisodeOptions } from "./create-episode";
import { dedupeKey } from "./dedupe-key";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

function eventEpisode(env: string | null, eventId: string): CreateEpisodeOptions {
  const event = { id: eventId, payload: { resource: "db-1", usage: 0.97 } };
  return {
    actorId: "resource_monitor",
    expectationId: "check_limits",
    triggerType: "event",
    dedupeKey: dedupeKey({
      actorId: "resource_monitor",
      expectationId: "check_limits",
      env,
      trigger: "event",
      event,
    }),
    input: event.payload,
    sourceNode: "node-a",
    sourceStack: null,
    sourceEnv: env,
    jitterMs: 0,
  };
}

async function liveCount(key: string | null): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM cyclium_episodes WHERE dedupe_key = $1 AND archived_at IS NULL",
    [key],
  );
  return rows[0]?.n ?? 0;
}

describe("createEpisode", () => {
  it("creates exactly one episode when 50 nodes insert the same event at once", async () => {
    const telemetry = new Telemetry();
    const deduped: TelemetryEvent[] = [];
    telemetry.subscribe((event) => deduped.push(event), { events: ["cyclium.episode.deduped"] });
    const debugLines: object[] = [];
    const logger: Logger = {
      debug: (obj) => debugLines.push(obj),
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const options = eventEpisode(null, "evt-race");
    const { clients, close } = await openClients(db.url, 50);
    try {
      const results = await Promise.all(
        clients.map((client, i) =>
          createEpisode({ ...options, sourceNode: `node-${i}`, telemetry, logger }, client),
        ),
      );
      expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
      const losers = results.filter((r) => r.kind === "deduped");
      expect(losers).toHaveLength(49);
      expect(losers[0]).toEqual({
        kind: "deduped",
        dedupeKey: options.dedupeKey,
      });
      expect(deduped).toHaveLength(49);
      expect(debugLines).toHaveLength(49);
      expect(await liveCount(options.dedupeKey)).toBe(1);
    } finally {
      await close();
    }
  });

  it("returns the created episode with its fields mapped", async () => {
    const options = eventEpisode("fields", "evt-fields");
    const result = await createEpisode(
      { ...options, status: "running", sourceStack: "hatch", telemetry: new Telemetry() },
      db.pool,
    );
    if (result.kind !== "created") throw new Error("expected a new episode");
    expect(result.episode).toMatchObject({
      actorId: "resource_monitor",
      expectationId: "check_limits",
      status: "running",
      triggerType: "event",
      dedupeKey: options.dedupeKey,
      input: { resource: "db-1", usage: 0.97 },
      attempt: 1,
      turnsUsed: 0,
      tokensUsed: 0,
      sourceStack: "hatch",
      sourceEnv: "fields",
      archivedAt: null,
    });
    expect(result.episode.startedAt).toBeInstanceOf(Date);
  });

  it("does not let an archived episode block a new one with the same key", async () => {
    const options = { ...eventEpisode(null, "evt-archived"), telemetry: new Telemetry() };
    const first = await createEpisode(options, db.pool);
    expect(first.kind).toBe("created");
    expect((await createEpisode(options, db.pool)).kind).toBe("deduped");
    await db.pool.query("UPDATE cyclium_episodes SET archived_at = now() WHERE dedupe_key = $1", [
      options.dedupeKey,
    ]);
    const again = await createEpisode(options, db.pool);
    expect(again.kind).toBe("created");
    expect(await liveCount(options.dedupeKey)).toBe(1);
  });

  it("gives each env its own episode for the same event", async () => {
    const telemetry = new Telemetry();
    const envs = [null, "rc", "demo"];
    const results = await Promise.all(
      envs.map((env) => createEpisode({ ...eventEpisode(env, "evt-envs"), telemetry }, db.pool)),
    );
    expect(results.map((r) => r.kind)).toEqual(["created", "created", "created"]);
    const created = results.flatMap((r) => (r.kind === "created" ? [r.episode] : []));
    expect(created.map((e) => e.sourceEnv)).toEqual(envs);
    expect(new Set(created.map((e) => e.dedupeKey)).size).toBe(3);
    const again = await createEpisode({ ...eventEpisode("rc", "evt-envs"), telemetry }, db.pool);
    expect(again.kind).toBe("deduped");
  });

  it("never deduplicates episodes without a key", async () => {
    const options = { ...eventEpisode(null, "x"), dedupeKey: null, telemetry: new Telemetry() };
    expect((await createEpisode(options, db.pool)).kind).toBe("created");
    expect((await createEpisode(options, db.pool)).kind).toBe("created");
  });

  it("leaves the caller's transaction usable after losing the race", async () => {
    const options = { ...eventEpisode(null, "evt-tx"), telemetry: new Telemetry() };
    await createEpisode(options, db.pool);
    const after = await withTransaction(db.pool, async (tx) => {
      const lost = await createEpisode(options, tx);
      const { rows } = await tx.query<{ ok: number }>("SELECT 1 AS ok");
      return { lost: lost.kind, ok: rows[0]?.ok };
    });
    expect(after).toEqual({ lost: "deduped", ok: 1 });
  });

  it("waits a random jitter before inserting when asked to", async () => {
    const options = { ...eventEpisode(null, "evt-jitter"), telemetry: new Telemetry() };
    const started = performance.now();
    await createEpisode({ ...options, jitterMs: 50 }, db.pool);
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(createEpisode({ ...options, jitterMs: -1 }, db.pool)).rejects.toThrow(/jitterMs/);
  });
});
