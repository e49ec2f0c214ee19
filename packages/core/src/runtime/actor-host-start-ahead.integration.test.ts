import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import { PostgresWorkClaims } from "../claims/index";
import { sweepOrphanedEpisodes } from "../recovery/index";
import { startTestPoller } from "../deferred/testing/index";
import type { ActorHost } from "./actor-host";
import type { ModeController } from "../modes/index";
import { useHostSuite } from "./testing/host-suite";

const { db, startHost: startSuiteHost, actor, episode, fired, settled } = useHostSuite();

/** Where runs hold their leases in the current case: claim rows, or the episode's own row. */
let model: "claim_rows" | "in_row" = "claim_rows";
const startHost = (actors: Parameters<typeof startSuiteHost>[0]) =>
  startSuiteHost(actors, { episodeLeases: model });

// Registered after the suite's: runs before the hosts are stopped.
const pollers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((stop) => stop()));
});

/** The trigger-request poller of a full node, as a worker runs it. */
async function startPoller(host: ActorHost, modes: ModeController): Promise<void> {
  // Requests written before it listened are found by the interval.
  const { stop } = await startTestPoller({
    url: db.url,
    db: db.pool,
    host,
    modes,
    intervalMs: 250,
    // As createCycliumNode starts it beside an in-row runner.
    ...(model === "in_row" ? { inRowLeaseSeconds: 30 } : {}),
  });
  pollers.push(stop);
}

/** Statuses of the episode's trigger requests, oldest first. */
async function requestsOf(id: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ status: string }>(
    "SELECT status FROM cyclium_trigger_requests WHERE episode_id = $1 ORDER BY id",
    [id],
  );
  return rows.map((row) => row.status);
}

/** Where an episode that was never started is: pending, unclaimed, not recovered. */
async function expectNeverStarted(id: string): Promise<void> {
  expect(await episode(id)).toMatchObject({
    status: "pending",
    started_at: null,
    executed_by: null,
    queued_by: null,
    attempt: 1,
    phase: null,
    recovery_history: [],
  });
  // Released, not failed: the next acquire anywhere is a take-over, not a steal.
  await expectReleased(id);
  expect(await requestsOf(id)).toEqual(["pending"]);
}

/** One step; `{ hold: true }` waits until the test releases it. Records each strategy run. */
function recordingStrategy() {
  const runs: string[] = [];
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const strategy: Strategy<unknown, { hold: boolean }> = {
    init: (_ctx, input) => ({ hold: (input as { hold?: boolean }).hold === true }),
    step: async (state, ctx) => {
      runs.push(ctx.episode.id);
      if (state.hold) await held;
      return done({ ok: true });
    },
  };
  return { runs, strategy, release: () => release() };
}

/** The run's lease was let go: its claim row `state`, or (in-row) no lease and no claim row. */
async function expectReleased(id: string, state: "done" | "failed" = "done"): Promise<void> {
  if (model === "claim_rows") {
    expect(await claimState(id)).toBe(state);
    return;
  }
  expect(await claimState(id)).toBeUndefined();
  expect(await leased(id)).toBe(false);
}

/** Never started here: no claim row, no lease. */
async function expectNeverLeased(id: string): Promise<void> {
  expect(await claimState(id)).toBeUndefined();
  expect(await leased(id)).toBe(false);
}

async function leased(id: string): Promise<boolean> {
  const { rows } = await db.pool.query<{ leased: boolean }>(
    "SELECT lease_until IS NOT NULL AS leased FROM cyclium_episodes WHERE id = $1",
    [id],
  );
  return rows[0]?.leased === true;
}

async function claimState(id: string): Promise<string | undefined> {
  const { rows } = await db.pool.query<{ state: string }>(
    "SELECT state FROM cyclium_work_claims WHERE dedupe_key = $1",
    [`episode:${id}`],
  );
  return rows[0]?.state;
}

async function runningOf(ids: string[]): Promise<string[]> {
  const running: string[] = [];
  for (const id of ids) if ((await episode(id)).status === "running") running.push(id);
  return running;
}

/**
 * A host whose actor (2 slots) has learnt that its strategies run faster than a start commits,
 * both slots held by strategies that wait for the test, and six more episodes queued, of which
 * some are started ahead (row running, claim held, strategy not run).
 */
async function hostWithEpisodesStartedAhead() {
  const rec = recordingStrategy();
  const { host, modes } = startHost([actor("ahead", rec.strategy, { maxConcurrentEpisodes: 2 })]);
  const warm = await Promise.all(Array.from({ length: 30 }, () => fired(host, "ahead")));
  for (const id of warm) expect((await settled(id)).status).toBe("completed");
  const held = [
    await fired(host, "ahead", { hold: true }),
    await fired(host, "ahead", { hold: true }),
  ];
  await vi.waitFor(() => expect(rec.runs).toEqual(expect.arrayContaining(held)));
  const queued = await Promise.all(Array.from({ length: 6 }, () => fired(host, "ahead")));
  await vi.waitFor(async () => expect((await runningOf(queued)).length).toBeGreaterThan(0));
  expect(rec.runs.filter((id) => queued.includes(id))).toEqual([]);
  expect(host.runningCount("ahead")).toBe(2);
  return { rec, host, modes, held, queued };
}

const runsOf = (runs: string[], id: string) => runs.filter((run) => run === id).length;

describe.each(["claim_rows", "in_row"] as const)("starting ahead of a free slot (%s)", (leases) => {
  beforeEach(() => {
    model = leases;
  });

  it("a graceful stop runs the started-ahead episodes as slots free and hands the rest back", async () => {
    const { rec, host, held, queued } = await hostWithEpisodesStartedAhead();

    const stopping = host.stop({ graceMs: 20_000 });
    await sleep(100);
    rec.release();
    await stopping;

    // The held ones finish their step; the started-ahead ones take the freed slots and run.
    const ahead: string[] = [];
    for (const id of queued) if ((await episode(id)).status !== "pending") ahead.push(id);
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThanOrEqual(2);
    for (const id of [...held, ...ahead]) {
      expect((await episode(id)).status).toBe("completed");
      await expectReleased(id);
      expect(runsOf(rec.runs, id)).toBe(1);
    }
    // The never-started ones are pending again, for another node; none ran here.
    for (const id of queued.filter((id) => !ahead.includes(id))) {
      expect(runsOf(rec.runs, id)).toBe(0);
      await expectNeverLeased(id);
    }
  });

  it("a mode switch puts them back to pending at once; another node runs each once", async () => {
    const { rec, host, modes, held, queued } = await hostWithEpisodesStartedAhead();
    const ahead = await runningOf(queued);
    expect(ahead.length).toBeGreaterThan(0);

    // The operator switches the actor off here; the queue reconcile finds it.
    await modes.setActorOverride("ahead", "trigger_only");
    await host.reconcileQueue();
    // Pending again without waiting for any stale threshold: no recovery runs in this test.
    await vi.waitFor(async () => expect(await runningOf(queued)).toEqual([]), { timeout: 15_000 });
    for (const id of ahead) await expectNeverStarted(id);
    expect(rec.runs.filter((id) => queued.includes(id))).toEqual([]);
    rec.release();
    for (const id of held) expect((await settled(id)).status).toBe("completed");

    // A node where the actor may run takes them from its poller, as fresh work.
    const {
      host: next,
      modes: nextModes,
      nodeIdentity,
    } = startHost([actor("ahead", rec.strategy, { maxConcurrentEpisodes: 2 })]);
    await startPoller(next, nextModes);
    for (const id of queued) {
      expect(await settled(id)).toMatchObject({
        status: "completed",
        executed_by: nodeIdentity,
        attempt: 1,
        phase: null,
        recovery_history: [],
      });
      expect(runsOf(rec.runs, id)).toBe(1);
      // In-row starts consume their request; a claim row's run completes it with its end.
      expect(await requestsOf(id)).toEqual(model === "in_row" ? [] : ["completed"]);
    }
  });

  it("an unstart whose claim was taken meanwhile changes nothing", async () => {
    const { rec, host, modes, queued } = await hostWithEpisodesStartedAhead();
    const ahead = await runningOf(queued);
    const [stolen] = ahead;
    if (stolen === undefined) throw new Error("none started ahead");
    // Another node took the claim over (as recovery's steal does: attempt + 1).
    await db.pool.query(
      model === "claim_rows"
        ? `UPDATE cyclium_work_claims SET owner_node = 'thief', attempt = attempt + 1
            WHERE dedupe_key = 'episode:' || $1`
        : "UPDATE cyclium_episodes SET executed_by = 'thief', attempt = attempt + 1 WHERE id = $1",
      [stolen],
    );
    const before = await episode(stolen);

    await modes.setActorOverride("ahead", "trigger_only");
    await host.reconcileQueue();
    for (const id of ahead.filter((id) => id !== stolen)) {
      await vi.waitFor(async () => expect((await episode(id)).status).toBe("pending"));
      await expectNeverStarted(id);
    }
    // Every run of this node has settled once its stop returns, the stolen one's unstart too.
    rec.release();
    await host.stop({ graceMs: 15_000 });
    // The episode the thief holds is as it was: running, its claim the thief's, no new request.
    expect(await requestsOf(stolen)).toEqual([]);
    expect(await episode(stolen)).toEqual(before);
    const { rows } = await db.pool.query(
      "SELECT state, owner_node FROM cyclium_work_claims WHERE dedupe_key = $1",
      [`episode:${stolen}`],
    );
    if (model === "claim_rows") expect(rows).toEqual([{ state: "claimed", owner_node: "thief" }]);
    else
      expect({ claims: rows, leased: await leased(stolen) }).toEqual({ claims: [], leased: true });
  });

  it("a stop that aborts puts them back to pending, and leaves the running ones to recovery", async () => {
    const { rec, host, held, queued } = await hostWithEpisodesStartedAhead();
    const ahead = await runningOf(queued);
    expect(ahead.length).toBeGreaterThan(0);

    // No grace: the held strategies are aborted and stay running with failed claims. The
    // started-ahead ones get no slot: their strategy never ran, so they are pending again, like
    // the never-started ones, which are handed over.
    await host.stop({ graceMs: 0 });
    rec.release();
    for (const id of held) await expectReleased(id, "failed");
    for (const id of ahead) {
      // The stop waits a few seconds for aborted runs to settle; on a loaded machine, wait on.
      await vi.waitFor(async () => expect((await episode(id)).status).toBe("pending"), {
        timeout: 15_000,
      });
      await expectNeverStarted(id);
    }
    expect(rec.runs.filter((id) => queued.includes(id))).toEqual([]);

    // Another node's recovery restarts only the held ones; its poller takes the rest.
    const { host: next, modes } = startHost([
      actor("ahead", rec.strategy, { maxConcurrentEpisodes: 2 }),
    ]);
    const swept = await sweepOrphanedEpisodes(
      {
        db: db.pool,
        node: "sweeper",
        scope: { stack: null, env: null },
        claims: new PostgresWorkClaims({ db: db.pool, episodeLeases: "claim_rows" }),
        registry: { recoveryPolicyFor: () => "restart" as const },
        target: next,
      },
      { staleAfterMs: 0 },
    );
    expect(swept.restarted).toBe(held.length);
    await startPoller(next, modes);
    for (const id of [...held, ...queued]) expect((await settled(id)).status).toBe("completed");
    for (const id of queued) {
      expect(runsOf(rec.runs, id)).toBe(1);
      expect(await episode(id)).toMatchObject({ recovery_history: [] });
    }
  });
});
