import { PgBus } from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedTestUsers, testContext, type TTestUsers } from "../../auth/testing/auth-test-kit";
import type { TLiveHint } from "../../live/live-hint";
import { getLiveHub } from "../../live/live-hub";
import { createCaller } from "../root-router";

// Issue 14 item 1: the console's push channel. A real PgBus (LISTEN/NOTIFY on a test database)
// feeds the process's hub, as the console node's bus does in production; the operator's cancel
// through core is the row change, and its `episode.cancelled` NOTIFY must reach the stream.
let database: TestDatabase;
let users: TTestUsers;
let bus: PgBus;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
  bus = await PgBus.start({ db: database.pool, connection: database.url, cleanup: false });
  getLiveHub().attach(bus);
});

afterAll(async () => {
  getLiveHub().attach(null);
  await bus?.close();
  await database?.drop();
});

async function pendingEpisode(env: string | null): Promise<string> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     VALUES ('alpha', 'check', 'pending', 'manual', $1) RETURNING id`,
    [env],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("no episode inserted");
  return id;
}

/** Opens a viewer's stream and reads hints from it in the background until aborted. */
async function openStream(input: { env?: string | null } | undefined) {
  const controller = new AbortController();
  const caller = createCaller(testContext(database.pool, users.viewer), {
    signal: controller.signal,
  });
  const iterable = await caller.live.events(input);
  const received: TLiveHint[] = [];
  const done = (async () => {
    for await (const hint of iterable) received.push(hint);
  })();
  return { received, stop: async () => (controller.abort(), await done) };
}

const waitFor = async (check: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe("live.events", () => {
  it("streams a hint for an episode cancelled through core, within a second, only to its env", async () => {
    const ownEnv = await openStream(undefined);
    const otherEnv = await openStream({ env: "elsewhere" });
    await waitFor(() => ownEnv.received.length > 0 && otherEnv.received.length > 0, 2_000);
    expect(ownEnv.received[0]).toEqual({ topic: "live.ready", pushing: true });

    const id = await pendingEpisode(null);
    const cancelledAt = Date.now();
    await createCaller(testContext(database.pool, users.operator)).episodes.cancel({ id });
    await waitFor(() => ownEnv.received.some((hint) => hint.episodeId === id), 1_000);
    const elapsedMs = Date.now() - cancelledAt;
    expect(ownEnv.received.find((hint) => hint.episodeId === id)).toMatchObject({
      topic: "episode.cancelled",
      episodeId: id,
      actorId: "alpha",
      env: null,
    });
    expect(elapsedMs).toBeLessThan(1_000);
    // The other env's stream saw the ready hint only.
    expect(otherEnv.received.map((hint) => hint.topic)).toEqual(["live.ready"]);

    await ownEnv.stop();
    await otherEnv.stop();
    expect(getLiveHub().subscriberCount).toBe(0);
  });

  it("is refused to an anonymous caller, like every read", async () => {
    const caller = createCaller(testContext(database.pool, null));
    await expect(
      (async () => {
        for await (const _hint of await caller.live.events(undefined)) break;
      })(),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(getLiveHub().subscriberCount).toBe(0);
  });
});
