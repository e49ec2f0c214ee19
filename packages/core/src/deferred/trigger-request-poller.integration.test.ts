import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openClients } from "../db/testing/index";
import type { Episode } from "../episodes/index";
import { ModeController } from "../modes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { claimTriggerRequests } from "./claim-trigger-requests";
import { DeferredRunner } from "./deferred-runner";
import { expireTriggerRequests } from "./expire-trigger-requests";
import { releaseOrphanedTriggerRequests } from "./release-orphaned-trigger-requests";
import type { PollerHost } from "./trigger-request-poller";
import { startTestPoller } from "./testing/index";

let db: TestDatabase;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
beforeEach(async () => {
  await db.pool.query("TRUNCATE cyclium_trigger_requests, cyclium_episodes CASCADE");
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db.drop();
});

function writer(scope: { stack?: string | null; env?: string | null } = {}) {
  return new DeferredRunner({
    db: db.pool,
    nodeIdentity: "console",
    stack: scope.stack ?? null,
    env: scope.env ?? null,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
}

async function defer(runner: DeferredRunner, actorId: string, count = 1): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const result = await runner.defer({
      actorId,
      expectationId: "run",
      triggerType: "manual",
      dedupeKey: null,
    });
    if (result.kind === "created") ids.push(result.requestId);
  }
  return ids;
}

const everywhere = { sourceStack: null, sourceEnv: null };

describe("claimTriggerRequests", () => {
  it("takes at most each actor's free slots, oldest first, with the episode", async () => {
    const w = writer();
    const a = await defer(w, "a", 5);
    const b = await defer(w, "b", 5);
    const claimed = await claimTriggerRequests(
      {
        node: "n1",
        limits: [
          { actorId: "a", limit: 2 },
          { actorId: "b", limit: 3 },
        ],
        ...everywhere,
      },
      db.pool,
    );
    expect(claimed.map((r) => r.id)).toEqual([...a.slice(0, 2), ...b.slice(0, 3)]);
    expect(claimed[0]?.episode).toMatchObject({ actorId: "a", status: "pending" });
    const rows = await db.pool.query<{ status: string; claimed_by: string }>(
      "SELECT status, claimed_by FROM cyclium_trigger_requests WHERE id = ANY($1::bigint[])",
      [claimed.map((r) => r.id)],
    );
    expect(rows.rows.every((r) => r.status === "claimed" && r.claimed_by === "n1")).toBe(true);
  });

  it("gives concurrent pollers disjoint batches", async () => {
    await defer(writer(), "a", 60);
    const { clients, close } = await openClients(db.url, 6);
    cleanups.push(close);
    const batches = await Promise.all(
      clients.map((client, i) =>
        claimTriggerRequests(
          { node: `n${i}`, limits: [{ actorId: "a", limit: 10 }], ...everywhere },
          client,
        ),
      ),
    );
    const ids = batches.flat().map((r) => r.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });

  it("matches env strictly and filters on the stack when one is given", async () => {
    await defer(writer({ env: "rc", stack: "blue" }), "a");
    await defer(writer({ env: null, stack: "blue" }), "a");
    await defer(writer({ env: null, stack: "green" }), "a");
    const claim = (sourceStack: string | null, sourceEnv: string | null) =>
      claimTriggerRequests(
        { node: "n", limits: [{ actorId: "a", limit: 10 }], sourceStack, sourceEnv },
        db.pool,
      );
    expect((await claim("green", "rc")).length).toBe(0);
    expect((await claim("blue", "rc")).map((r) => r.episode.sourceEnv)).toEqual(["rc"]);
    expect((await claim(null, null)).map((r) => r.episode.sourceStack)).toEqual(["blue", "green"]);
  });
});

describe("expiry and orphans", () => {
  it("expires pending requests past the TTL and fails their episodes with error_class expired", async () => {
    const [old] = await defer(writer(), "a");
    const [young] = await defer(writer(), "a");
    const [otherEnv] = await defer(writer({ env: "rc" }), "a");
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET run_at = now() - interval '2 hours' WHERE id = ANY($1::bigint[])",
      [[old, otherEnv]],
    );
    const result = await expireTriggerRequests(
      { ttlMs: 60 * 60_000, limit: 100, ...everywhere },
      db.pool,
    );
    expect(result.expired).toBe(1);
    expect(result.failedEpisodes.map((e: Episode) => [e.status, e.errorClass])).toEqual([
      ["failed", "expired"],
    ]);
    const statuses = await db.pool.query<{ id: string; status: string }>(
      "SELECT id::text, status FROM cyclium_trigger_requests ORDER BY id",
    );
    expect(statuses.rows).toEqual([
      { id: old, status: "expired" },
      { id: young, status: "pending" },
      { id: otherEnv, status: "pending" },
    ]);
  });

  it("puts requests claimed by a node that is gone back to pending, not those of a live node", async () => {
    const [dead, live] = await defer(writer(), "a", 2);
    await db.pool.query(
      `INSERT INTO cyclium_nodes (identity, kind, mode, started_at, last_seen_at)
       VALUES ('live', 'worker', 'full', now() - interval '1 hour', now()),
              ('dead', 'worker', 'full', now() - interval '2 hours', now() - interval '1 hour')`,
    );
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET status = 'claimed', claimed_by = CASE WHEN id = $1 THEN 'dead' ELSE 'live' END, claimed_at = now() - interval '1 minute'",
      [dead],
    );
    expect(
      await releaseOrphanedTriggerRequests(
        { nodeSilenceMs: 15_000, minClaimAgeMs: 15_000 },
        db.pool,
      ),
    ).toBe(1);
    const rows = await db.pool.query<{ id: string; status: string }>(
      "SELECT id::text, status FROM cyclium_trigger_requests ORDER BY id",
    );
    expect(rows.rows).toEqual([
      { id: dead, status: "pending" },
      { id: live, status: "claimed" },
    ]);
  });
  it("puts back the requests of a node that restarted under the same identity", async () => {
    const [before, after] = await defer(writer(), "a", 2);
    // A static identity: the claim of the killed process, then its successor's registration
    // (started_at reset) and a claim of its own.
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET status = 'claimed', claimed_by = 'w', claimed_at = now() - interval '1 minute' WHERE id = $1",
      [before],
    );
    await db.pool.query(
      `INSERT INTO cyclium_nodes (identity, kind, mode, started_at, last_seen_at)
       VALUES ('w', 'worker', 'full', now() - interval '40 seconds', now())`,
    );
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET status = 'claimed', claimed_by = 'w', claimed_at = now() - interval '30 seconds' WHERE id = $1",
      [after],
    );
    expect(
      await releaseOrphanedTriggerRequests(
        { nodeSilenceMs: 15_000, minClaimAgeMs: 15_000 },
        db.pool,
      ),
    ).toBe(1);
    const rows = await db.pool.query<{ id: string; status: string }>(
      "SELECT id::text, status FROM cyclium_trigger_requests ORDER BY id",
    );
    expect(rows.rows).toEqual([
      { id: before, status: "pending" },
      { id: after, status: "claimed" },
    ]);
  });
});

describe("TriggerRequestPoller", () => {
  function fakeHost(actors: string[], free = 4) {
    const dispatched: { actorId: string; requestId: string }[] = [];
    const host: PollerHost = {
      actorIds: () => actors,
      freeCapacity: () => free,
      dispatch: (episode: Episode, opts) => {
        dispatched.push({ actorId: episode.actorId, requestId: opts.triggerRequestId });
        return { kind: "queued", settled: Promise.resolve({ kind: "ran" as const }) };
      },
      onSlotFreed: () => () => undefined,
    };
    return { host, dispatched };
  }

  async function startPoller(host: PollerHost, modes: ModeController) {
    // Never fires within a test: every pickup below comes from a NOTIFY wake-up.
    const started = await startTestPoller({
      url: db.url,
      db: db.pool,
      host,
      modes,
      intervalMs: 600_000,
    });
    cleanups.push(started.stop);
    return started.poller;
  }

  it("wakes on NOTIFY, dispatches, and marks requests completed when their episodes settle", async () => {
    const modes = new ModeController({ nodeIdentity: "full-1", baseMode: "full" });
    const { host, dispatched } = fakeHost(["a"]);
    const poller = await startPoller(host, modes);
    const ids = await defer(writer(), "a", 3);
    await vi.waitFor(() =>
      expect(dispatched.map((d) => d.requestId).sort()).toEqual([...ids].sort()),
    );
    await poller.drain();
    const rows = await db.pool.query(
      "SELECT DISTINCT status, claimed_by FROM cyclium_trigger_requests",
    );
    expect(rows.rows).toEqual([{ status: "completed", claimed_by: "full-1" }]);
  });

  it("takes nothing unless the node is full, and skips actors that are not full here", async () => {
    const modes = new ModeController({ nodeIdentity: "full-2", baseMode: "trigger_only" });
    const { host, dispatched } = fakeHost(["a", "b"]);
    const poller = await startPoller(host, modes);
    await defer(writer(), "a", 2);
    await defer(writer(), "b", 2);
    expect(await poller.pollOnce()).toBe(0);
    await modes.setActorOverride("a", "trigger_only");
    // Switching the node to full wakes the poller at once (no NOTIFY, no interval).
    await modes.set("full");
    await vi.waitFor(() => expect(dispatched.map((d) => d.actorId)).toEqual(["b", "b"]));
    expect(await poller.pollOnce()).toBe(0);
  });

  it("puts back requests it claimed but does not hold (a claim whose reply a restart lost), not the ones it runs", async () => {
    const modes = new ModeController({ nodeIdentity: "full-3", baseMode: "full" });
    // A dispatch that never settles: its request stays held while maintenance runs.
    const dispatched: string[] = [];
    const host: PollerHost = {
      actorIds: () => ["a"],
      freeCapacity: () => (dispatched.length === 0 ? 1 : 0),
      dispatch: (_episode: Episode, opts) => {
        dispatched.push(opts.triggerRequestId);
        return { kind: "queued", settled: new Promise(() => undefined) };
      },
      onSlotFreed: () => () => undefined,
    };
    const [held, stranded] = await defer(writer(), "a", 2);
    const poller = await startPoller(host, modes);
    await vi.waitFor(() => expect(dispatched).toEqual([held]));
    // This node is alive (so the release of gone nodes' requests leaves both alone); the stranded
    // request was claimed by it a minute ago and is in no dispatch of this process.
    await db.pool.query(
      `INSERT INTO cyclium_nodes (identity, kind, mode, started_at, last_seen_at)
       VALUES ('full-3', 'worker', 'full', now() - interval '1 hour', now())`,
    );
    await db.pool.query(
      `UPDATE cyclium_trigger_requests SET status = 'claimed', claimed_by = 'full-3',
              claimed_at = now() - interval '1 minute' WHERE id IN ($1, $2)`,
      [held, stranded],
    );
    await poller.runMaintenance();
    const rows = await db.pool.query<{ id: string; status: string }>(
      "SELECT id::text, status FROM cyclium_trigger_requests ORDER BY id",
    );
    expect(rows.rows).toEqual([
      { id: held, status: "claimed" },
      { id: stranded, status: "pending" },
    ]);
  });
});
