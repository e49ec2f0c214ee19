import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defineActor, done, type Strategy } from "../actors/index";
import { createCycliumNode, type CycliumNode } from "../nodes/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { clearNodeOverrides } from "./clear-node-overrides";
import { listConcurrencyOverrides } from "./list-concurrency-overrides";
import { listModeOverrides } from "./list-mode-overrides";
import { setConcurrencyOverride } from "./set-concurrency-override";
import { setModeOverride } from "./set-mode-override";

// Issue 14 item 6: an actor's maxConcurrentEpisodes changed on a running node (createCycliumNode
// in-process, as the mode tests run ModeSync), through the table and its NOTIFY.
let db: TestDatabase;
const nodes: CycliumNode[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
});
beforeEach(async () => {
  await db.pool.query("DELETE FROM cyclium_concurrency_overrides");
  await db.pool.query("DELETE FROM cyclium_mode_overrides");
});
afterEach(async () => {
  gate.releaseAll();
  await Promise.all(nodes.splice(0).map((node) => node.stop({ graceMs: 5_000 })));
});
afterAll(async () => {
  await db.drop();
});

/** Episodes that run until the test releases them, counting how many run at once. */
const gate = {
  active: 0,
  /** How many ran at once when each episode started, in start order. */
  startedWith: [] as number[],
  waiting: [] as (() => void)[],
  release(count: number) {
    for (const resolve of this.waiting.splice(0, count)) resolve();
  },
  releaseAll() {
    this.release(this.waiting.length);
  },
};
const gated: Strategy<unknown, null> = {
  init: () => null,
  step: async () => {
    gate.active += 1;
    gate.startedWith.push(gate.active);
    await new Promise<void>((resolve) => gate.waiting.push(resolve));
    gate.active -= 1;
    return done({ ok: true });
  },
};
const slow = defineActor({
  identifier: "slow",
  maxConcurrentEpisodes: 1,
  expectations: [{ id: "work", strategy: gated, trigger: { manual: true } }],
});

async function startNode(nodeIdentity: string): Promise<CycliumNode> {
  const node = await createCycliumNode({
    db: db.pool,
    databaseUrl: db.url,
    kind: "worker",
    mode: "full",
    nodeIdentity,
    stack: null,
    env: null,
    workClaims: "postgres",
    leaseSeconds: 30,
    poller: { enabled: false, intervalMs: 60_000, sourceStack: null },
    actors: [slow],
    dynamicActors: false,
    jitterMs: 0,
    telemetryRollups: false,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  nodes.push(node);
  await node.start();
  return node;
}

async function statusCounts(): Promise<Record<string, number>> {
  const { rows } = await db.pool.query<{ status: string; n: number }>(
    "SELECT status, count(*)::int AS n FROM cyclium_episodes WHERE actor_id = 'slow' GROUP BY status",
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

describe("an actor's limit changed live", () => {
  it("raised from 1 to 3 runs 3 at once; lowered to 1, running ones finish and one runs at a time", async () => {
    const node = await startNode("limits-1");
    for (let i = 0; i < 7; i += 1) {
      await node.host.fire({ actorId: "slow", expectationId: "work", triggerType: "manual" });
    }
    await vi.waitFor(() => expect(gate.active).toBe(1), { timeout: 10_000 });
    await vi.waitFor(async () => expect(await statusCounts()).toEqual({ running: 1, pending: 6 }));

    await setConcurrencyOverride({
      db: db.pool,
      targetNode: "limits-1",
      actorId: "slow",
      maxConcurrentEpisodes: 3,
      setBy: "test",
    });
    // Queued work starts at once: no episode ended, no restart.
    await vi.waitFor(() => expect(gate.active).toBe(3), { timeout: 10_000 });
    expect(node.host.maxConcurrentEpisodes(slow)).toBe(3);
    await vi.waitFor(async () => expect(await statusCounts()).toEqual({ running: 3, pending: 4 }));

    await setConcurrencyOverride({
      db: db.pool,
      targetNode: "limits-1",
      actorId: "slow",
      maxConcurrentEpisodes: 1,
    });
    await vi.waitFor(() => expect(node.host.maxConcurrentEpisodes(slow)).toBe(1));
    const startsBefore = gate.startedWith.length;
    // The three running finish; none of the four queued starts while more than one runs.
    gate.release(2);
    await vi.waitFor(async () => expect(await statusCounts()).toMatchObject({ completed: 2 }));
    expect(gate.active).toBe(1);
    expect(gate.startedWith.length).toBe(startsBefore);
    gate.release(1);
    // Then one at a time until all seven have run.
    for (let ran = 3; ran < 7; ran += 1) {
      await vi.waitFor(() => expect(gate.waiting.length).toBe(1), { timeout: 10_000 });
      gate.release(1);
    }
    await vi.waitFor(async () => expect(await statusCounts()).toEqual({ completed: 7 }), {
      timeout: 10_000,
    });
    expect(gate.startedWith.slice(startsBefore)).toEqual([1, 1, 1, 1]);
  });

  it("clearNodeOverrides removes every override of one node only, and the node applies it", async () => {
    const node = await startNode("limits-2");
    const limit = (targetNode: string, maxConcurrentEpisodes: number) =>
      setConcurrencyOverride({ db: db.pool, targetNode, actorId: "slow", maxConcurrentEpisodes });
    await limit("limits-2", 4);
    await limit("other", 5);
    await limit("*", 2);
    await setModeOverride({ db: db.pool, targetNode: "limits-2", mode: "trigger_only" });
    await setModeOverride({ db: db.pool, targetNode: "limits-2", actorId: "slow", mode: "full" });
    await setModeOverride({ db: db.pool, targetNode: "other", mode: "disabled" });
    await vi.waitFor(() => {
      expect(node.host.maxConcurrentEpisodes(slow)).toBe(4);
      expect(node.modes.nodeMode).toBe("trigger_only");
    });

    expect(await clearNodeOverrides({ db: db.pool, targetNode: "limits-2" })).toEqual({
      kind: "cleared",
      modeOverrides: 2,
      concurrencyOverrides: 1,
    });
    const left = await listConcurrencyOverrides({ db: db.pool });
    expect(left.map((row) => [row.targetNode, row.maxConcurrentEpisodes])).toEqual([
      ["*", 2],
      ["other", 5],
    ]);
    const modesLeft = await listModeOverrides({ db: db.pool });
    expect(modesLeft.map((row) => [row.targetNode, row.mode])).toEqual([["other", "disabled"]]);
    // The cluster-wide limit is what remains for this node; its configured mode is back.
    await vi.waitFor(() => {
      expect(node.host.maxConcurrentEpisodes(slow)).toBe(2);
      expect(node.modes.nodeMode).toBe("full");
    });
    expect(await clearNodeOverrides({ db: db.pool, targetNode: "limits-2" })).toEqual({
      kind: "nothing_to_clear",
    });
  });
});
