import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PgListener } from "../bus/index";
import { clearAllModeOverrides } from "./clear-all-mode-overrides";
import { clearModeOverride } from "./clear-mode-override";
import { listModeOverrides } from "./list-mode-overrides";
import type { Mode, ModeStatus } from "./mode";
import { ModeController } from "./mode-controller";
import { ModeSync } from "./mode-sync";
import { setModeOverride } from "./set-mode-override";

let db: TestDatabase;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
beforeEach(async () => {
  await db.pool.query("DELETE FROM cyclium_mode_overrides");
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db.drop();
});

/** One node: its own listener connection, controller and sync, as a worker process has. */
async function startNode(
  nodeIdentity: string,
  options: { baseMode?: Mode; pollIntervalMs?: number; reconnectDelayMs?: number } = {},
) {
  const listener = new PgListener({
    connection: db.url,
    reconnect: { initialDelayMs: options.reconnectDelayMs ?? 100 },
  });
  await listener.start();
  cleanups.push(() => listener.close());
  const controller = new ModeController({
    nodeIdentity,
    baseMode: options.baseMode ?? "full",
    db: db.pool,
  });
  const sync = await ModeSync.start({
    controller,
    db: db.pool,
    listener,
    // Long by default: a change applied quickly can then only have come through NOTIFY.
    pollIntervalMs: options.pollIntervalMs ?? 60_000,
  });
  cleanups.push(() => sync.stop());
  return { listener, controller, sync };
}

describe("ModeSync with cyclium_mode_overrides", () => {
  it("applies an override written by another process within a second, through NOTIFY", async () => {
    const { controller } = await startNode("worker-1");
    const changes: { status: ModeStatus; at: number }[] = [];
    controller.onChange((status) => changes.push({ status, at: performance.now() }));

    const writtenAt = performance.now();
    await setModeOverride({
      db: db.pool,
      targetNode: "worker-1",
      actorId: "resource_monitor",
      mode: "trigger_only",
      setBy: "operator@example.com",
    });

    await vi.waitFor(() =>
      expect(controller.effectiveMode("resource_monitor")).toBe("trigger_only"),
    );
    expect(controller.effectiveMode("resource_advisor")).toBe("full");
    const latencyMs = (changes[0]?.at ?? Infinity) - writtenAt;
    expect(latencyMs).toBeLessThan(1_000);

    await clearModeOverride({ db: db.pool, targetNode: "worker-1", actorId: "resource_monitor" });
    await vi.waitFor(() => expect(controller.effectiveMode("resource_monitor")).toBe("full"));
  });

  it("falls back to polling when a change comes without a NOTIFY", async () => {
    const { controller } = await startNode("worker-1", { pollIntervalMs: 100 });
    await db.pool.query(
      "INSERT INTO cyclium_mode_overrides (target_node, actor_id, mode) VALUES ('*', NULL, 'disabled')",
    );
    await vi.waitFor(() => expect(controller.nodeMode).toBe("disabled"), { timeout: 1_500 });
  });

  it("applies '*' to every node and lets a node's own row win; other nodes' rows are ignored", async () => {
    const one = await startNode("worker-1");
    const two = await startNode("worker-2", { baseMode: "trigger_only" });

    await setModeOverride({ db: db.pool, targetNode: "*", mode: "trigger_only" });
    await setModeOverride({ db: db.pool, targetNode: "*", actorId: "advisor", mode: "disabled" });
    await setModeOverride({ db: db.pool, targetNode: "worker-2", mode: "full" });
    await setModeOverride({
      db: db.pool,
      targetNode: "worker-2",
      actorId: "advisor",
      mode: "full",
    });

    await vi.waitFor(() => {
      expect(one.controller.status()).toEqual({
        nodeMode: "trigger_only",
        overrides: { advisor: "disabled" },
        nodeIdentity: "worker-1",
        baseMode: "full",
      });
      expect(two.controller.status()).toMatchObject({
        nodeMode: "full",
        overrides: { advisor: "full" },
      });
    });

    // A node-wide disabled beats the actor override.
    await setModeOverride({ db: db.pool, targetNode: "worker-2", mode: "disabled" });
    await vi.waitFor(() => expect(two.controller.effectiveMode("advisor")).toBe("disabled"));
    expect(one.controller.nodeMode).toBe("trigger_only");
  });

  it("writes local changes through, so the console and a restarted node see them", async () => {
    const { controller } = await startNode("worker-1");
    await controller.set("trigger_only");
    await controller.setActorOverride("monitor", "full");

    const stored = await listModeOverrides({ db: db.pool, targetNodes: ["worker-1"] });
    expect(stored.map(({ actorId, mode, setBy }) => ({ actorId, mode, setBy }))).toEqual([
      { actorId: null, mode: "trigger_only", setBy: "node:worker-1" },
      { actorId: "monitor", mode: "full", setBy: "node:worker-1" },
    ]);

    const restarted = await startNode("worker-1");
    expect(restarted.controller.status()).toMatchObject({
      nodeMode: "trigger_only",
      overrides: { monitor: "full" },
    });

    await controller.clearAllOverrides();
    expect(await listModeOverrides({ db: db.pool, targetNodes: ["worker-1"] })).toHaveLength(1);
    await vi.waitFor(() => expect(restarted.controller.status().overrides).toEqual({}));
  });

  it("upserts one row per (target, actor), the node-wide NULL actor included", async () => {
    await setModeOverride({ db: db.pool, targetNode: "w", mode: "full" });
    const second = await setModeOverride({ db: db.pool, targetNode: "w", mode: "disabled" });
    await setModeOverride({ db: db.pool, targetNode: "w", actorId: "a", mode: "full" });
    await setModeOverride({ db: db.pool, targetNode: "w", actorId: "a", mode: "trigger_only" });

    const rows = await listModeOverrides({ db: db.pool });
    expect(rows.map((r) => [r.actorId, r.mode])).toEqual([
      [null, "disabled"],
      ["a", "trigger_only"],
    ]);
    expect(second.updatedAt.getTime()).toBeGreaterThanOrEqual(second.insertedAt.getTime());

    expect(await clearAllModeOverrides({ db: db.pool, targetNode: "w" })).toBe(1);
    expect(await clearModeOverride({ db: db.pool, targetNode: "w" })).toEqual({ kind: "cleared" });
    expect(await clearModeOverride({ db: db.pool, targetNode: "w" })).toEqual({
      kind: "not_found",
    });
  });

  it("catches up on a change made while its listener was disconnected", async () => {
    const { listener, controller } = await startNode("worker-1", { reconnectDelayMs: 1_000 });
    await db.pool.query("SELECT pg_terminate_backend($1)", [listener.backendPid]);
    await vi.waitFor(() => expect(listener.isConnected).toBe(false));

    // The NOTIFY of this write reaches nobody; the reconnect hook re-reads the table.
    await setModeOverride({ db: db.pool, targetNode: "worker-1", mode: "trigger_only" });
    expect(controller.nodeMode).toBe("full");

    await vi.waitFor(() => expect(controller.nodeMode).toBe("trigger_only"), { timeout: 5_000 });
  });
});
