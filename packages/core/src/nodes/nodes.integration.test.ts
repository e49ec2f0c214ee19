import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PgBus, type BusEvent } from "../bus/index";
import { ModeController } from "../modes/index";
import { listNodes } from "./list-nodes";
import { markNodeStopped } from "./mark-node-stopped";
import type { NodeInfo } from "./node";
import { NODE_MODES_APPLIED_TOPIC, NodeHeartbeat } from "./node-heartbeat";
import { recordNodeHeartbeat } from "./record-node-heartbeat";
import { registerNode } from "./register-node";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
beforeEach(async () => {
  await db.pool.query("DELETE FROM cyclium_nodes");
});
afterAll(async () => {
  await db.drop();
});

const worker: NodeInfo = {
  identity: "worker-1",
  kind: "worker",
  mode: "full",
  overrides: {},
  stack: "stack_a",
  env: "qa",
  host: "host-1",
  pid: 4242,
  version: "0.1.0",
};

/** Moves a node's clocks into the past, as if it had gone silent that long ago. */
async function age(identity: string, interval: string): Promise<void> {
  await db.pool.query(
    `UPDATE cyclium_nodes
     SET last_seen_at = last_seen_at - $2::interval, started_at = started_at - $2::interval
     WHERE identity = $1`,
    [identity, interval],
  );
}

describe("node registry", () => {
  it("registers, refreshes on heartbeat keeping started_at, and lists live nodes", async () => {
    const registered = await registerNode({ db: db.pool, node: worker });
    expect(registered).toMatchObject({ ...worker, status: "running", stoppedAt: null, live: true });

    await age("worker-1", "1 minute");
    const beat = await recordNodeHeartbeat({
      db: db.pool,
      node: { ...worker, mode: "trigger_only", overrides: { monitor: "disabled" } },
    });
    expect(beat.startedAt.getTime()).toBe(registered.startedAt.getTime() - 60_000);
    expect(beat.lastSeenAt.getTime()).toBeGreaterThan(beat.startedAt.getTime() + 59_000);
    expect(beat).toMatchObject({ mode: "trigger_only", overrides: { monitor: "disabled" } });

    await registerNode({ db: db.pool, node: { ...worker, identity: "web-1", kind: "web" } });
    const live = await listNodes({ db: db.pool, liveOnly: true });
    expect(live.map((n) => [n.kind, n.identity])).toEqual([
      ["web", "web-1"],
      ["worker", "worker-1"],
    ]);
    expect(await listNodes({ db: db.pool, kind: "web" })).toHaveLength(1);
  });

  it("judges liveness by last_seen_at within the window on the database clock", async () => {
    await registerNode({ db: db.pool, node: worker });
    await registerNode({ db: db.pool, node: { ...worker, identity: "worker-2" } });
    await age("worker-2", "30 seconds");

    const all = await listNodes({ db: db.pool, liveWithinMs: 15_000 });
    expect(all.map((n) => [n.identity, n.live])).toEqual([
      ["worker-1", true],
      ["worker-2", false],
    ]);
    expect(await listNodes({ db: db.pool, liveWithinMs: 60_000, liveOnly: true })).toHaveLength(2);
    expect(await listNodes({ db: db.pool, liveWithinMs: 15_000, liveOnly: true })).toHaveLength(1);
  });

  it("marks a node stopped (not live) and a restart registers it running again", async () => {
    await registerNode({ db: db.pool, node: worker });
    expect(await markNodeStopped({ db: db.pool, identity: "worker-1" })).toEqual({
      kind: "stopped",
    });
    expect(await markNodeStopped({ db: db.pool, identity: "nobody" })).toEqual({
      kind: "not_found",
    });

    const [stopped] = await listNodes({ db: db.pool });
    expect(stopped).toMatchObject({ status: "stopped", live: false });
    expect(stopped?.stoppedAt).toBeInstanceOf(Date);
    expect(await listNodes({ db: db.pool, liveOnly: true })).toEqual([]);

    await age("worker-1", "1 hour");
    const restarted = await registerNode({ db: db.pool, node: { ...worker, pid: 5151 } });
    expect(restarted).toMatchObject({ status: "running", stoppedAt: null, pid: 5151, live: true });
    expect(Date.now() - restarted.startedAt.getTime()).toBeLessThan(60_000);
  });

  it("NodeHeartbeat reports the modes in force at once when they change, then marks stopped", async () => {
    const modes = new ModeController({ nodeIdentity: "worker-1", baseMode: "full" });
    const heartbeat = await NodeHeartbeat.start({
      db: db.pool,
      node: { identity: "worker-1", kind: "worker", version: "0.1.0" },
      modes,
      // Long: the row can only follow the mode change through the onChange beat.
      intervalMs: 60_000,
    });
    try {
      const [registered] = await listNodes({ db: db.pool });
      expect(registered).toMatchObject({ mode: "full", pid: process.pid, status: "running" });

      await modes.setActorOverride("resource_monitor", "trigger_only");
      await vi.waitFor(async () => {
        const [row] = await listNodes({ db: db.pool });
        expect(row?.overrides).toEqual({ resource_monitor: "trigger_only" });
      });
    } finally {
      await heartbeat.stop();
    }
    const [stopped] = await listNodes({ db: db.pool });
    expect(stopped?.status).toBe("stopped");
  });

  it("NodeHeartbeat announces an applied mode change on the bus after recording it", async () => {
    const bus = await PgBus.start({ db: db.pool, connection: db.url, cleanup: false });
    const applied: BusEvent[] = [];
    bus.subscribe(NODE_MODES_APPLIED_TOPIC, (event) => void applied.push(event));
    const modes = new ModeController({ nodeIdentity: "worker-2", baseMode: "full" });
    const heartbeat = await NodeHeartbeat.start({
      db: db.pool,
      node: { identity: "worker-2", kind: "worker" },
      modes,
      intervalMs: 60_000,
    });
    try {
      await modes.setActorOverride("resource_monitor", "disabled");
      await vi.waitFor(() => expect(applied).toHaveLength(1), { timeout: 2_000 });
      expect(applied[0]?.payload).toEqual({ node: "worker-2" });
      // Published after the beat: a console refetching on the event reads the new modes.
      const row = (await listNodes({ db: db.pool })).find((node) => node.identity === "worker-2");
      expect(row?.overrides).toEqual({ resource_monitor: "disabled" });
    } finally {
      await heartbeat.stop();
      await bus.close();
    }
  });

  it("NodeHeartbeat refreshes last_seen_at on its interval", async () => {
    const heartbeat = await NodeHeartbeat.start({
      db: db.pool,
      node: { identity: "worker-1", kind: "worker", mode: "trigger_only" },
      intervalMs: 50,
    });
    try {
      await age("worker-1", "1 hour");
      await vi.waitFor(async () => {
        const [row] = await listNodes({ db: db.pool, liveOnly: true });
        expect(row?.mode).toBe("trigger_only");
      });
    } finally {
      await heartbeat.stop({ markStopped: false });
    }
    const [row] = await listNodes({ db: db.pool });
    expect(row?.status).toBe("running");
  });
});
