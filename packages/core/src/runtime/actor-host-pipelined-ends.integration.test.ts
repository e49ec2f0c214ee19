import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { done, type Strategy } from "../actors/index";
import { MemoryBus, type BusEvent } from "../bus/index";
import { ENDS_PER_SLOT } from "./episode-slots";
import { useHostSuite } from "./testing/host-suite";

const { db, startHost: startSuiteHost, actor, episode, fired, settled } = useHostSuite();

/** Where runs hold their leases in the current case: claim rows, or the episode's own row. */
let model: "claim_rows" | "in_row" = "claim_rows";
const startHost = (
  actors: Parameters<typeof startSuiteHost>[0],
  options: Parameters<typeof startSuiteHost>[1] = {},
) => startSuiteHost(actors, { ...options, episodeLeases: model });

/** A one-step strategy that counts how many of its runs overlap, each waiting `input.ms`. */
function overlapCounter() {
  const seen = { live: 0, maxLive: 0, runs: 0 };
  const strategy: Strategy<unknown, { ms: number }> = {
    init: (_ctx, input) => ({ ms: (input as { ms?: number }).ms ?? 0 }),
    step: async (state) => {
      seen.live += 1;
      seen.runs += 1;
      seen.maxLive = Math.max(seen.maxLive, seen.live);
      await sleep(state.ms);
      seen.live -= 1;
      return done({ ok: true });
    },
  };
  return { seen, strategy };
}

/** A one-step strategy whose runs return when the test lets them, in order. */
function gatedStrategy() {
  const started: string[] = [];
  const returned: string[] = [];
  const gates = new Map<string, () => void>();
  const strategy: Strategy<unknown, null> = {
    init: () => null,
    step: async (_state, ctx) => {
      started.push(ctx.episode.id);
      await new Promise<void>((resolve) => gates.set(ctx.episode.id, resolve));
      returned.push(ctx.episode.id);
      return done({ ok: true });
    },
  };
  const open = (id: string) => {
    const gate = gates.get(id);
    if (gate === undefined) throw new Error(`${id} is not waiting`);
    gate();
  };
  return { started, returned, open, strategy };
}

/**
 * Holds an episode's end statement: its claim row (in-row: its episode row) locked FOR UPDATE in
 * an open transaction (the end reads its fence FOR SHARE, so it waits for this transaction).
 */
async function holdEnd(id: string): Promise<{ release: () => Promise<void> }> {
  const client: pg.PoolClient = await db.pool.connect();
  await client.query("BEGIN");
  // In-row, the end reads the episode row FOR SHARE (its own lease) instead.
  await client.query(
    model === "claim_rows"
      ? "SELECT 1 FROM cyclium_work_claims WHERE dedupe_key = 'episode:' || $1 FOR UPDATE"
      : "SELECT 1 FROM cyclium_episodes WHERE id = $1 FOR UPDATE",
    [id],
  );
  return {
    release: async () => {
      await client.query("ROLLBACK");
      client.release();
    },
  };
}

/** Waits until some backend waits on a lock (the held end statement). */
async function endStatementWaiting(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      expect(rows[0]?.n).toBeGreaterThan(0);
    },
    { timeout: 10_000, interval: 20 },
  );
}

function completedIds(events: BusEvent[]): string[] {
  return events
    .filter((event) => event.topic === "episode.completed")
    .map((event) => (event.payload as { episodeId: string }).episodeId);
}

describe.each(["claim_rows", "in_row"] as const)("pipelined ends (%s)", (leases) => {
  beforeEach(() => {
    model = leases;
  });

  it("never runs more than maxConcurrentEpisodes strategies of an actor at once", async () => {
    const { seen, strategy } = overlapCounter();
    const { host } = startHost([actor("bounded", strategy, { maxConcurrentEpisodes: 3 })]);
    const inMemory: number[] = [];
    const sampler = setInterval(
      () => inMemory.push(host.runningCount("bounded") + host.endingCount("bounded")),
      1,
    );
    try {
      const ids: string[] = [];
      for (let i = 0; i < 40; i += 1) ids.push(await fired(host, "bounded", { ms: i % 4 }));
      const rows = await Promise.all(ids.map((id) => settled(id)));
      expect(rows.map((row) => row.status)).toEqual(ids.map(() => "completed"));
    } finally {
      clearInterval(sampler);
    }
    expect(seen.runs).toBe(40);
    expect(seen.maxLive).toBeLessThanOrEqual(3);
    // Strategies plus ends in flight: at most (1 + ENDS_PER_SLOT) times the limit.
    expect(Math.max(...inMemory)).toBeLessThanOrEqual(3 * (1 + ENDS_PER_SLOT));
  });

  it("frees the slot when the strategy returns, reports the completion only after its end commits", async () => {
    const bus = new MemoryBus();
    const events: BusEvent[] = [];
    bus.subscribe("episode.completed", (event) => void events.push(event));
    const gated = gatedStrategy();
    // One end in flight per slot, so that one held end reaches the bound.
    const { host } = startHost([actor("piped", gated.strategy, { maxConcurrentEpisodes: 1 })], {
      bus,
      endsPerSlot: 1,
    });
    const a = await fired(host, "piped");
    const b = await fired(host, "piped");
    const c = await fired(host, "piped");
    await vi.waitFor(() => expect(gated.started).toEqual([a]));
    const heldA = await holdEnd(a);
    let heldB: { release: () => Promise<void> } | undefined;
    try {
      gated.open(a);
      await endStatementWaiting();
      // A's strategy returned: its slot took B while A's end waits on the held claim row.
      await vi.waitFor(() => expect(gated.started).toEqual([a, b]));
      expect(host.runningCount("piped")).toBe(1);
      expect(host.endingCount("piped")).toBe(1);
      // Not durable yet, so not reported: the row is running, no event went out.
      expect((await episode(a)).status).toBe("running");
      expect(completedIds(events)).toEqual([]);

      // B returns while A's end is still in flight: one end in flight is the limit, so B keeps
      // its slot and C waits. B's end is held too: it goes out beside A's (two end batches may be
      // in flight) and would otherwise commit at once and free the slot.
      heldB = await holdEnd(b);
      gated.open(b);
      await vi.waitFor(() => expect(gated.returned).toEqual([a, b]));
      await sleep(300);
      expect(gated.started).toEqual([a, b]);
      expect(host.runningCount("piped")).toBe(1);
      expect(host.endingCount("piped")).toBe(1);
      expect((await episode(b)).status).toBe("running");
      expect(completedIds(events)).toEqual([]);
    } finally {
      await heldA.release();
      // A's end commits first, then B's: the completions are reported in that order.
      try {
        await vi.waitFor(async () => expect((await episode(a)).status).toBe("completed"), {
          timeout: 10_000,
        });
      } finally {
        await heldB?.release();
      }
    }
    // Both ends commit, then C runs.
    await vi.waitFor(() => expect(gated.started).toEqual([a, b, c]));
    expect((await episode(a)).status).toBe("completed");
    expect((await episode(b)).status).toBe("completed");
    gated.open(c);
    expect((await settled(c)).status).toBe("completed");
    await vi.waitFor(() => expect(completedIds(events)).toEqual([a, b, c]));
  });

  it("a stop waits for the ends in flight", async () => {
    const gated = gatedStrategy();
    const { host } = startHost([actor("drained", gated.strategy, { maxConcurrentEpisodes: 2 })]);
    const a = await fired(host, "drained");
    await vi.waitFor(() => expect(gated.started).toEqual([a]));
    const heldA = await holdEnd(a);
    let stopped = false;
    let stopping: Promise<void> | undefined;
    try {
      gated.open(a);
      await endStatementWaiting();
      expect(host.runningCount("drained")).toBe(0);
      expect(host.endingCount("drained")).toBe(1);
      stopping = host.stop({ graceMs: 30_000 }).then(() => void (stopped = true));
      await sleep(300);
      expect(stopped).toBe(false);
    } finally {
      await heldA.release();
    }
    await stopping;
    expect((await episode(a)).status).toBe("completed");
    const claim = await db.pool.query<{ state: string }>(
      "SELECT state FROM cyclium_work_claims WHERE dedupe_key = $1",
      [`episode:${a}`],
    );
    // Released with the end: the claim row done, or the row's lease cleared and no claim row.
    if (model === "claim_rows") expect(claim.rows[0]?.state).toBe("done");
    else expect(claim.rows).toEqual([]);
    expect((await episode(a)).status).toBe("completed");
  });
});
