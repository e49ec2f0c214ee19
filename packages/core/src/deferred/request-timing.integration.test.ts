import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Episode } from "../episodes/index";
import { ModeController } from "../modes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { ageTriggerRequests } from "./age-trigger-requests";
import { claimTriggerRequests } from "./claim-trigger-requests";
import { DeferredRunner, type RequestTiming } from "./deferred-runner";
import { expireTriggerRequests } from "./expire-trigger-requests";
import { nextDueTriggerRequest } from "./next-due-trigger-request";
import type { PollerHost } from "./trigger-request-poller";
import { startTestPoller } from "./testing/index";

// SPEC section 16 on the deferred queue: delayed runs (run_at by the database clock), priorities
// (higher first, FIFO within one) and the ageing rule against starvation.
let db: TestDatabase;
const cleanups: (() => Promise<void>)[] = [];
const everywhere = { sourceStack: null, sourceEnv: null };

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

const runner = () =>
  new DeferredRunner({
    db: db.pool,
    nodeIdentity: "console",
    stack: null,
    env: null,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });

async function defer(timing: RequestTiming, actorId = "a"): Promise<string> {
  const result = await runner().defer(
    { actorId, expectationId: "run", triggerType: "manual", dedupeKey: null },
    {},
    timing,
  );
  if (result.kind !== "created") throw new Error("expected a created episode");
  return result.requestId;
}

const claim = (limit: number, node = "n1") =>
  claimTriggerRequests({ node, limits: [{ actorId: "a", limit }], ...everywhere }, db.pool);

describe("the deferred queue's timing", () => {
  it("claims a delayed request only once the database clock has reached its run_at", async () => {
    const delayed = await defer({ delayMs: 400 });
    const now = await defer({});
    expect((await claim(5)).map((request) => request.id)).toEqual([now]);
    const inMs = await nextDueTriggerRequest(everywhere, db.pool);
    expect(inMs).toBeGreaterThan(0);
    expect(inMs).toBeLessThanOrEqual(400);
    await vi.waitFor(async () => expect((await claim(5)).map((r) => r.id)).toEqual([delayed]), {
      timeout: 10_000,
      interval: 50,
    });
    const { rows } = await db.pool.query<{ on_time: boolean }>(
      "SELECT claimed_at >= run_at AS on_time FROM cyclium_trigger_requests WHERE id = $1",
      [delayed],
    );
    expect(rows).toEqual([{ on_time: true }]);
    expect(await nextDueTriggerRequest(everywhere, db.pool)).toBeUndefined();
  });

  it("counts runAt and delayMs together, by the database clock", async () => {
    const id = await defer({ runAt: new Date("2030-01-01T00:00:00Z"), delayMs: 60_000 });
    const { rows } = await db.pool.query<{ run_at: Date }>(
      "SELECT run_at FROM cyclium_trigger_requests WHERE id = $1",
      [id],
    );
    expect(rows[0]?.run_at.toISOString()).toBe("2030-01-01T00:01:00.000Z");
  });

  it("claims higher priority first and FIFO within one priority", async () => {
    const low = await defer({});
    const highFirst = await defer({ priority: 7 });
    const mid = await defer({ priority: 3 });
    const highSecond = await defer({ priority: 7 });
    expect((await claim(3)).map((request) => request.id)).toEqual([highFirst, highSecond, mid]);
    expect((await claim(3)).map((request) => request.id)).toEqual([low]);
  });

  it("raises a waiting request one level per ageing period, so it is not starved", async () => {
    const old = await defer({ priority: 0 });
    // Due 95 s ago: three periods of 30 s.
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET run_at = now() - interval '95 seconds' WHERE id = $1",
      [old],
    );
    const fresh = await defer({ priority: 2 });
    expect(await ageTriggerRequests({ ageingMs: 30_000 }, db.pool)).toBe(1);
    // Running it again changes nothing: every node may run it at once.
    expect(await ageTriggerRequests({ ageingMs: 30_000 }, db.pool)).toBe(0);
    const { rows } = await db.pool.query<{ id: string; priority: number; claim_priority: number }>(
      "SELECT id::text, priority, claim_priority FROM cyclium_trigger_requests ORDER BY id",
    );
    expect(rows).toEqual([
      { id: old, priority: 0, claim_priority: 3 },
      { id: fresh, priority: 2, claim_priority: 2 },
    ]);
    expect((await claim(1)).map((request) => request.id)).toEqual([old]);
  });

  it("expires a request by how long it has been due, not how long ago it was written", async () => {
    const delayed = await defer({ delayMs: 3_600_000 });
    const overdue = await defer({});
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET inserted_at = now() - interval '2 hours'",
    );
    await db.pool.query(
      "UPDATE cyclium_trigger_requests SET run_at = now() - interval '2 hours' WHERE id = $1",
      [overdue],
    );
    const expired = await expireTriggerRequests(
      { ttlMs: 3_600_000, ...everywhere, limit: 10 },
      db.pool,
    );
    expect(expired.expired).toBe(1);
    const { rows } = await db.pool.query<{ id: string; status: string }>(
      "SELECT id::text, status FROM cyclium_trigger_requests ORDER BY id",
    );
    expect(rows).toEqual([
      { id: delayed, status: "pending" },
      { id: overdue, status: "expired" },
    ]);
  });

  it("wakes an idle poller when a delayed request falls due, without its fallback poll", async () => {
    const dispatched: string[] = [];
    const host: PollerHost = {
      actorIds: () => ["a"],
      freeCapacity: () => 4,
      dispatch: (_episode: Episode, opts) => {
        dispatched.push(opts.triggerRequestId);
        return { kind: "queued", settled: Promise.resolve({ kind: "ran" as const }) };
      },
      onSlotFreed: () => () => undefined,
    };
    const started = await startTestPoller({
      url: db.url,
      db: db.pool,
      host,
      modes: new ModeController({ nodeIdentity: "full-delay", baseMode: "full" }),
      // Never fires within the test: only the NOTIFY and the due-time timer can wake it.
      intervalMs: 600_000,
    });
    cleanups.push(started.stop);
    const id = await defer({ delayMs: 500 });
    // The insert's NOTIFY finds nothing due; the poller then arms its timer for the run_at.
    await vi.waitFor(() => expect(dispatched).toEqual([id]), { timeout: 10_000, interval: 50 });
  });
});
