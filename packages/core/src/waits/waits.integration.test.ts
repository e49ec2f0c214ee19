import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { defineActor, done, wait, type Strategy } from "../actors/index";
import { createClient, type CycliumClient } from "../client/index";
import { defineDeployment } from "../deployment/index";
import { startEpisodes, unstartEpisodes } from "../episodes/index";
import { createCycliumNode, type CycliumNode } from "../nodes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../deferred/index";

// Durable waits on one real node (SPEC section 17): the wall budget counts running time only,
// and an episode resumed from a wait but put back before its strategy ran stays `waiting`.
interface BusyState {
  left: number;
  busyMs: number;
}

/** Busy `busyMs` per step, then sleeps 1 s, `left` times; the wall budget sees only the busy time. */
const busySleeper: Strategy<{ rounds: number; busyMs: number }, BusyState> = {
  init: (_ctx, input) => ({ left: input.rounds, busyMs: input.busyMs }),
  step: async (state) => {
    await sleep(state.busyMs);
    if (state.left === 0) return done({ rounds: "all" });
    return wait({ ms: 1_000, state: { ...state, left: state.left - 1 } });
  },
};

const deployment = defineDeployment({
  actors: [
    defineActor({
      identifier: "busy_sleeper",
      expectations: [
        {
          id: "run",
          strategy: busySleeper,
          trigger: { manual: true },
          budget: { maxWallMs: 1_000 },
        },
      ],
    }),
  ],
});

let db: TestDatabase;
let node: CycliumNode;
let client: CycliumClient<typeof deployment>;

beforeAll(async () => {
  db = await createTestDatabase();
  node = await createCycliumNode({
    db: db.pool,
    databaseUrl: db.url,
    kind: "worker",
    mode: "full",
    nodeIdentity: "waits-node",
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: 30,
    poller: { enabled: true, intervalMs: 5_000, sourceStack: null },
    actors: deployment.actors,
    strategies: deployment.strategies,
    dynamicActors: false,
    telemetryRollups: false,
    jitterMs: 0,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  await node.start();
  client = createClient({ connectionString: db.url }, { deployment });
});
afterAll(async () => {
  await client?.close();
  await node?.stop();
  await db?.drop();
});

async function run(rounds: number, busyMs: number) {
  const fired = await client.fire({
    actorId: "busy_sleeper",
    expectationId: "run",
    input: { rounds, busyMs },
  });
  if (fired.kind !== "created") throw new Error(fired.kind);
  return fired.result({ timeoutMs: 20_000 });
}

describe("durable waits on one node", () => {
  it("counts no waiting time against the wall budget, and carries the running time over", async () => {
    // 3 x 250 ms running, 2 s waiting: 2.75 s in all against 1 s of wall budget.
    expect(await run(2, 250)).toMatchObject({ kind: "completed", result: { rounds: "all" } });
    // Every wait was woken, and the start of each resumed run consumed its wake-up request.
    const { rows } = await db.pool.query<{ waits: number; requests: number }>(
      `SELECT (SELECT count(*) FROM cyclium_episode_waits w JOIN cyclium_episodes e
                 ON e.id = w.episode_id
                WHERE e.actor_id = 'busy_sleeper' AND w.woken_at IS NULL)::int AS waits,
              (SELECT count(*) FROM cyclium_trigger_requests r JOIN cyclium_episodes e
                 ON e.id = r.episode_id WHERE e.actor_id = 'busy_sleeper')::int AS requests`,
    );
    expect(rows).toEqual([{ waits: 0, requests: 0 }]);
    // 3 x 400 ms running is over the budget although each run alone is under it.
    expect(await run(2, 400)).toMatchObject({
      kind: "failed",
      error: { class: "budget_exceeded" },
    });
  }, 30_000);

  it("puts a resumed episode put back before its strategy ran back to waiting", async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       VALUES ('nobody', 'run', 'waiting', 'manual') RETURNING id`,
    );
    const id = rows[0]!.id;
    await db.pool.query(
      `INSERT INTO cyclium_episode_waits (episode_id, kind, step_no, attempt, wake_at)
       VALUES ($1, 'sleep', 1, 1, now())`,
      [id],
    );
    const claimKey = `episode:${id}`;
    const [started] = await startEpisodes(
      { owner: "n1", leaseSeconds: 30, episodes: [{ episodeId: id, claimKey, resend: false }] },
      db.pool,
    );
    if (started?.kind !== "started") throw new Error(`not started: ${started?.kind}`);
    const fence = { dedupeKey: claimKey, owner: "n1", attempt: started.attempt };
    const [unstarted] = await unstartEpisodes(
      {
        node: "n1",
        episodes: [{ episodeId: id, fence }],
        wake: { channel: TRIGGER_REQUESTS_CHANNEL, payload: "{}" },
      },
      db.pool,
    );
    expect(unstarted?.kind).toBe("unstarted");
    await vi.waitFor(async () => expect((await client.get(id))?.status).toBe("waiting"));
    expect((await client.get(id))?.attempt).toBe(1);
  });
});
