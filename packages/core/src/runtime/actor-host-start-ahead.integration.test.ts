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

describe("starting ahead of a free slot", () => {
  it("a stopping node leaves its started-ahead episodes to recovery, which runs each once", async () => {
    const rec = recordingStrategy();
    const { host } = startHost([actor("ahead", rec.strategy, { maxConcurrentEpisodes: 2 })]);

    // Short strategies teach the node that starts take longer than runs.
    const warm = await Promise.all(Array.from({ length: 30 }, () => fired(host, "ahead")));
    for (const id of warm) expect((await settled(id)).status).toBe("completed");

    // Two held strategies take both slots; of six more, some are started ahead: their rows are
    // running and their claims held, but their strategies wait for a slot.
    const held = [
      await fired(host, "ahead", { hold: true }),
      await fired(host, "ahead", { hold: true }),
    ];
    await vi.waitFor(() => expect(rec.runs).toEqual(expect.arrayContaining(held)));
    const queued = await Promise.all(Array.from({ length: 6 }, () => fired(host, "ahead")));
    const runningOf = async (ids: string[]) => {
      const running: string[] = [];
      for (const id of ids) if ((await episode(id)).status === "running") running.push(id);
      return running;
    };
    await vi.waitFor(async () => expect((await runningOf(queued)).length).toBeGreaterThan(0));
    expect(rec.runs.filter((id) => queued.includes(id))).toEqual([]);
    expect(host.runningCount("ahead")).toBe(2);

    // The node stops: the held ones are aborted at the grace period, the started-ahead ones get
    // no slot. Both stay running with failed claims; the never-started ones are handed over.
    await host.stop({ graceMs: 0 });
    rec.release();
    const ahead = await runningOf(queued);
    expect(ahead.length).toBeGreaterThan(0);
    expect(ahead.length).toBeLessThanOrEqual(2);
    for (const id of [...held, ...ahead]) expect(await claimState(id)).toBe("failed");
    expect(rec.runs.filter((id) => queued.includes(id))).toEqual([]);

    // Another node's recovery restarts them and runs each exactly once.
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
    for (const id of queued) expect(rec.runs.filter((run) => run === id)).toHaveLength(1);
  });
});
