import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Episode } from "../episodes/index";
import type { LimitFreedListener, LimitRule } from "../limits/index";
import { ModeController } from "../modes/index";
import type { LimitedRequests } from "./start-limited-requests";
import type { PollerHost } from "./trigger-request-poller";
import { startTestPoller } from "./testing/index";

// SPEC section 16: a freed slot wakes a waiting node at once. The node whose limited episode
// ended has the free slot, so its own poller is offered the wake-up first; only what that poll
// does not reuse wakes the other nodes (one NOTIFY), never every node for every end.

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

const rule: LimitRule = { k: "global:/llm", c: "concurrency", l: 1 };
const limited: LimitedRequests = {
  actorIds: ["llm"],
  rulesFor: () => [rule],
  capFor: () => 1,
  roomFor: () => rule,
};

/** A node's host: `free` slots for `llm`; counts its polls; records what it was given to run. */
function host(free: number) {
  const node = {
    polls: 0,
    started: [] as string[],
    freed: undefined as LimitFreedListener | undefined,
  };
  const pollerHost: PollerHost = {
    actorIds: () => ["llm"],
    freeCapacity: () => {
      node.polls += 1;
      return free;
    },
    dispatch: (episode: Episode) => {
      node.started.push(episode.id);
      return { kind: "queued", settled: Promise.resolve({ kind: "request_completed" as const }) };
    },
    onSlotFreed: () => () => undefined,
    onLimitFreed: (listener) => {
      node.freed = listener;
      return () => (node.freed = undefined);
    },
  };
  return { node, pollerHost };
}

async function startNode(identity: string, free: number) {
  const { node, pollerHost } = host(free);
  const started = await startTestPoller({
    url: db.url,
    db: db.pool,
    host: pollerHost,
    modes: new ModeController({ nodeIdentity: identity, baseMode: "full" }),
    // Never fires within a test: every start below comes from a wake-up.
    intervalMs: 600_000,
    inRowLeaseSeconds: 30,
    limited,
  });
  cleanups.push(started.stop);
  // The start's own first poll is done (nothing had room).
  await started.poller.pollOnce();
  return node;
}

/** The limit's one slot held by `endedHere`, and one request waiting for it. */
async function saturated(): Promise<{ endedHere: string; waiting: string }> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, executed_by,
                                   started_at, limit_keys)
     VALUES ('llm', 'call', 'running', 'manual', 'node-a', now(), ARRAY['global:/llm'])
     RETURNING id::text`,
  );
  const { rows: waiting } = await db.pool.query<{ id: string }>(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
       VALUES ('llm', 'call', 'pending', 'manual') RETURNING id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
     SELECT id, 'llm', 'call', 'pending' FROM e RETURNING episode_id::text AS id`,
  );
  return { endedHere: rows[0]?.id ?? "", waiting: waiting[0]?.id ?? "" };
}

/** The episode ends on node A (committed), then its runner offers the freed slot to A's poller. */
async function endOnA(a: { freed: LimitFreedListener | undefined }, id: string): Promise<void> {
  await db.pool.query(
    "UPDATE cyclium_episodes SET status = 'completed', finished_at = now(), limit_keys = NULL WHERE id = $1",
    [id],
  );
  expect(a.freed?.({ env: null, keys: [rule.k] })).toBe(true);
}

describe("a limited episode's end", () => {
  it("starts the waiting episode on its own node, without waking the others", async () => {
    const { endedHere, waiting } = await saturated();
    const a = await startNode("node-a", 1);
    const b = await startNode("node-b", 1);
    const bPolls = b.polls;
    await endOnA(a, endedHere);
    await vi.waitFor(() => expect(a.started).toEqual([waiting]), { timeout: 5_000 });
    // Node B was not woken: no poll of its own since.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(b.polls).toBe(bPolls);
    expect(b.started).toEqual([]);
  });

  it("wakes the other nodes when its own poll cannot reuse the slot", async () => {
    const { endedHere, waiting } = await saturated();
    // Node A has no room for the actor now; node B runs none of its episodes.
    const a = await startNode("node-a", 0);
    const b = await startNode("node-b", 1);
    await endOnA(a, endedHere);
    // Started on B at once: its fallback poll is ten minutes away.
    await vi.waitFor(() => expect(b.started).toEqual([waiting]), { timeout: 5_000 });
    expect(a.started).toEqual([]);
  });
});
