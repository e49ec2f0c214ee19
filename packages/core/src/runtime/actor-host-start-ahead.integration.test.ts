import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import { PostgresWorkClaims } from "../claims/index";
import { sweepOrphanedEpisodes } from "../recovery/index";
import { useHostSuite } from "./testing/host-suite";

const { db, startHost, actor, episode, fired, settled } = useHostSuite();

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
  const { host } = startHost([actor("ahead", rec.strategy, { maxConcurrentEpisodes: 2 })]);
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
  return { rec, host, held, queued };
}

const runsOf = (runs: string[], id: string) => runs.filter((run) => run === id).length;

describe("starting ahead of a free slot", () => {
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
      expect(await claimState(id)).toBe("done");
      expect(runsOf(rec.runs, id)).toBe(1);
    }
    // The never-started ones are pending again, for another node; none ran here.
    for (const id of queued.filter((id) => !ahead.includes(id))) {
      expect(runsOf(rec.runs, id)).toBe(0);
      expect(await claimState(id)).toBeUndefined();
    }
  });

  it("a stop that aborts leaves them to recovery, which runs each once", async () => {
    const { rec, host, held, queued } = await hostWithEpisodesStartedAhead();

    // No grace: the held strategies are aborted and the started-ahead ones get no slot. Both
    // stay running with failed claims; the never-started ones are handed over.
    await host.stop({ graceMs: 0 });
    rec.release();
    const ahead = await runningOf(queued);
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThanOrEqual(2);
    for (const id of [...held, ...ahead]) expect(await claimState(id)).toBe("failed");
    expect(rec.runs.filter((id) => queued.includes(id))).toEqual([]);

    // Another node's recovery restarts exactly those and runs each once.
    const { host: next } = startHost([actor("ahead", rec.strategy, { maxConcurrentEpisodes: 2 })]);
    const swept = await sweepOrphanedEpisodes(
      {
        db: db.pool,
        node: "sweeper",
        scope: { stack: null, env: null },
        claims: new PostgresWorkClaims({ db: db.pool }),
        registry: { recoveryPolicyFor: () => "restart" as const },
        target: next,
      },
      { staleAfterMs: 0 },
    );
    expect(swept.restarted).toBe(held.length + ahead.length);
    // The ones never started went back pending (this fixture has no poller: enqueue them).
    for (const id of queued.filter((id) => !ahead.includes(id))) {
      expect((await episode(id)).status).toBe("pending");
      expect((await next.enqueueEpisode(id)).kind).toBe("queued");
    }
    for (const id of [...held, ...queued]) expect((await settled(id)).status).toBe("completed");
    for (const id of queued) expect(runsOf(rec.runs, id)).toBe(1);
  });
});
