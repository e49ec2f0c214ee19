import { afterEach, describe, expect, it, vi } from "vitest";
import { defineActor, done, type Strategy } from "../actors/index";
import { stealEpisodeLeases } from "../episodes/lease/index";
import type { ModeController } from "../modes/index";
import { startTestPoller } from "../deferred/testing/index";
import type { ActorHost } from "./actor-host";
import { useHostSuite } from "./testing/host-suite";

// The runtime on the episode's own lease (SPEC section 4, the built-in default): the poller starts
// episodes in the statement that completes their requests, the runner renews the leases in their
// rows, and every release clears `lease_until`. No claim row is written for an episode's run.

const { db, startHost, actor, episode, settled } = useHostSuite();

const pollers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((stop) => stop()));
});

const inRow = { episodeLeases: "in_row" } as const;

async function startPoller(host: ActorHost, modes: ModeController, leaseSeconds = 30) {
  const { stop } = await startTestPoller({
    url: db.url,
    db: db.pool,
    host,
    modes,
    intervalMs: 250,
    inRowLeaseSeconds: leaseSeconds,
  });
  pollers.push(stop);
}

/** Pending episodes of `actorId`, each owned by a pending trigger request (the deferred path). */
async function seedRequested(actorId: string, count: number): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, input)
       SELECT $1, 'run', 'pending', 'manual', '{}'::jsonb FROM generate_series(1, $2::int)
       RETURNING id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
     SELECT id, $1, 'run', 'pending' FROM e
     RETURNING episode_id::text AS id`,
    [actorId, count],
  );
  return rows.map((row) => row.id);
}

/** Records each strategy run; `hold()` makes the next runs wait until `release()`. */
function recordingStrategy() {
  const runs: string[] = [];
  const aborted: string[] = [];
  let holding = false;
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  const strategy: Strategy<unknown, Record<string, never>> = {
    init: () => ({}),
    step: async (_state, ctx) => {
      runs.push(ctx.episode.id);
      if (holding) {
        const abort = new Promise<void>((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
        await Promise.race([held, abort]);
        if (ctx.signal.aborted) aborted.push(ctx.episode.id);
      }
      return done({ ok: true });
    },
  };
  return {
    runs,
    aborted,
    strategy,
    hold: () => {
      holding = true;
      held = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(sql, params);
  return rows[0]?.n ?? 0;
}

describe("the runtime on the episode's own lease", () => {
  it("two nodes drain requests through their pollers: each episode once, no claim row", async () => {
    const rec = recordingStrategy();
    const a = startHost([actor("drain", rec.strategy, { maxConcurrentEpisodes: 4 })], inRow);
    const b = startHost([actor("drain", rec.strategy, { maxConcurrentEpisodes: 4 })], inRow);
    const ids = await seedRequested("drain", 60);
    await startPoller(a.host, a.modes);
    await startPoller(b.host, b.modes);
    for (const id of ids) expect((await settled(id)).status).toBe("completed");

    expect([...rec.runs].sort()).toEqual([...ids].sort());
    const executors = new Set<string | null>();
    for (const id of ids) executors.add((await episode(id)).executed_by);
    expect([...executors].every((node) => node === a.nodeIdentity || node === b.nodeIdentity));
    // Requests consumed by the starts (deleted), leases released, no claim rows.
    expect(
      await count(
        "SELECT count(*)::int AS n FROM cyclium_trigger_requests WHERE episode_id = ANY($1::uuid[])",
        [ids],
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM cyclium_episodes WHERE lease_until IS NOT NULL AND id = ANY($1::uuid[])",
        [ids],
      ),
    ).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM cyclium_work_claims")).toBe(0);
  });

  it("renews leases in the row; a stolen lease aborts only its run and fences its end", async () => {
    const rec = recordingStrategy();
    rec.hold();
    // A 3 s lease: the keeper renews every second.
    const { host, modes, nodeIdentity } = startHost(
      [actor("steal", rec.strategy, { maxConcurrentEpisodes: 2 })],
      { ...inRow, leaseSeconds: 3 },
    );
    const [victim, survivor] = await seedRequested("steal", 2);
    if (victim === undefined || survivor === undefined) throw new Error("seeded two");
    await startPoller(host, modes, 3);
    await vi.waitFor(() => expect(rec.runs.length).toBe(2), { timeout: 10_000 });
    const before = await db.pool.query<{ lease_until: Date }>(
      "SELECT lease_until FROM cyclium_episodes WHERE id = $1",
      [survivor],
    );
    // Renewed in its row while it runs.
    await vi.waitFor(
      async () => {
        const now = await db.pool.query<{ lease_until: Date }>(
          "SELECT lease_until FROM cyclium_episodes WHERE id = $1",
          [survivor],
        );
        expect(now.rows[0]?.lease_until.getTime()).toBeGreaterThan(
          before.rows[0]?.lease_until.getTime() ?? 0,
        );
      },
      { timeout: 5_000 },
    );

    // Another node steals the victim's lease once it lapsed (attempt + 1).
    await db.pool.query(
      "UPDATE cyclium_episodes SET lease_until = now() - interval '1 second' WHERE id = $1",
      [victim],
    );
    const stolen = await stealEpisodeLeases(
      { owner: "thief", leaseSeconds: 60, episodeIds: [victim] },
      db.pool,
    );
    expect(stolen[0]).toMatchObject({ ok: true, stolen: true, attempt: 2 });
    const afterSteal = await episode(victim);
    // The next renew answers not_owner: the victim's run is aborted, the survivor's is not.
    await vi.waitFor(() => expect(rec.aborted).toEqual([victim]), { timeout: 10_000 });
    rec.release();
    expect((await settled(survivor)).status).toBe("completed");
    expect((await episode(survivor)).executed_by).toBe(nodeIdentity);
    // The zombie's end was fenced: the row is the thief's, untouched.
    await host.stop({ graceMs: 5_000 });
    expect(await episode(victim)).toEqual(afterSteal);
    expect(afterSteal).toMatchObject({ status: "running", executed_by: "thief" });
  });

  it("a mode switch puts episodes started in the poll back to pending with a new request", async () => {
    const rec = recordingStrategy();
    rec.hold();
    // One slot and a prefetch of 3: the poll starts four, three wait for the slot, leased.
    const { host, modes } = startHost(
      [actor("moved", rec.strategy, { maxConcurrentEpisodes: 1 })],
      {
        ...inRow,
        requestPrefetch: 3,
      },
    );
    const ids = await seedRequested("moved", 4);
    await startPoller(host, modes);
    await vi.waitFor(
      async () =>
        expect(
          await count(
            "SELECT count(*)::int AS n FROM cyclium_episodes WHERE status = 'running' AND id = ANY($1::uuid[])",
            [ids],
          ),
        ).toBe(4),
      { timeout: 10_000 },
    );
    expect(rec.runs.length).toBe(1);
    const waiting = ids.filter((id) => !rec.runs.includes(id));

    await modes.setActorOverride("moved", "trigger_only");
    await host.reconcileQueue();
    for (const id of waiting) {
      await vi.waitFor(async () => expect((await episode(id)).status).toBe("pending"), {
        timeout: 15_000,
      });
      expect(await episode(id)).toMatchObject({ executed_by: null, attempt: 1 });
      const { rows } = await db.pool.query<{ status: string }>(
        "SELECT status FROM cyclium_trigger_requests WHERE episode_id = $1 ORDER BY id",
        [id],
      );
      // The poll's start consumed its request; a new pending one owns it now.
      expect(rows.map((row) => row.status)).toEqual(["pending"]);
    }
    rec.release();
    const [first] = rec.runs;
    if (first === undefined) throw new Error("one ran");
    expect((await settled(first)).status).toBe("completed");
    expect(await count("SELECT count(*)::int AS n FROM cyclium_work_claims")).toBe(0);
  });

  it("retries a failed attempt as a new request, started in-row again, until it completes", async () => {
    const attempts: number[] = [];
    const flaky: Strategy<unknown, Record<string, never>> = {
      init: () => ({}),
      step: (_state, ctx) => {
        attempts.push(ctx.episode.attempt);
        if (ctx.episode.attempt < 3) throw new Error(`attempt ${ctx.episode.attempt} fails`);
        return Promise.resolve(done({ ok: true }));
      },
    };
    const retrying = defineActor({
      identifier: "flaky",
      expectations: [
        {
          id: "run",
          strategy: flaky,
          trigger: { manual: true },
          retry: { maxAttempts: 3, backoff: { initialMs: 50, maxMs: 100 } },
        },
      ],
    });
    const { host, modes, nodeIdentity } = startHost([retrying], inRow);
    const [id] = await seedRequested("flaky", 1);
    if (id === undefined) throw new Error("seeded one");
    await startPoller(host, modes);
    expect(await settled(id)).toMatchObject({ status: "completed", executed_by: nodeIdentity });
    expect(attempts).toEqual([1, 2, 3]);
    const failed = await db.pool.query<{ attempt: number }>(
      "SELECT attempt FROM cyclium_episode_attempts WHERE episode_id = $1 ORDER BY attempt",
      [id],
    );
    expect(failed.rows.map((row) => row.attempt)).toEqual([1, 2]);
    // One request per attempt (the retries' written by the end statement at run_at), each
    // consumed by the start of its attempt; no lease left, no claim row.
    expect(
      await count("SELECT count(*)::int AS n FROM cyclium_trigger_requests WHERE episode_id = $1", [
        id,
      ]),
    ).toBe(0);
    expect(await episode(id)).toMatchObject({ attempt: 3 });
    expect(
      await count(
        "SELECT count(*)::int AS n FROM cyclium_episodes WHERE id = $1 AND lease_until IS NOT NULL",
        [id],
      ),
    ).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM cyclium_work_claims")).toBe(0);
  });

  it("a stop hands a running episode back: pending at attempt + 1, its lease cleared", async () => {
    const rec = recordingStrategy();
    rec.hold();
    const restartable = defineActor({
      identifier: "handed",
      expectations: [
        {
          id: "run",
          strategy: rec.strategy,
          trigger: { manual: true },
          recoveryPolicy: "restart",
          budget: { maxTurns: 1_000_000 },
        },
      ],
    });
    const { host, modes, nodeIdentity } = startHost([restartable], inRow);
    const [id] = await seedRequested("handed", 1);
    if (id === undefined) throw new Error("seeded one");
    await startPoller(host, modes);
    await vi.waitFor(() => expect(rec.runs).toEqual([id]), { timeout: 10_000 });
    // No grace: the step is aborted by the node's stop and the episode handed back.
    await host.stop({ graceMs: 0 });
    expect(await episode(id)).toMatchObject({
      status: "pending",
      attempt: 2,
      executed_by: null,
      recovery_history: [expect.objectContaining({ node: nodeIdentity, outcome: "handed_back" })],
    });
    expect(
      await count(
        "SELECT count(*)::int AS n FROM cyclium_episodes WHERE id = $1 AND lease_until IS NOT NULL",
        [id],
      ),
    ).toBe(0);
    const requests = await db.pool.query<{ status: string }>(
      "SELECT status FROM cyclium_trigger_requests WHERE episode_id = $1 ORDER BY id",
      [id],
    );
    // The poll's start consumed the first request; the hand-back wrote the one that owns it.
    expect(requests.rows.map((row) => row.status)).toEqual(["pending"]);
  });
});
