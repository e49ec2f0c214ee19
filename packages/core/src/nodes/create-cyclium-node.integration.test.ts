import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defineActor, type ActorDefinition } from "../actors/index";
import { noopStrategy, stepsStrategy } from "../runtime/testing/index";
import { silentLogger, Telemetry } from "../telemetry/index";
import { createCycliumNode, type CycliumNode } from "./create-cyclium-node";
import type { NodeExtension } from "./node-extension";

let db: TestDatabase;
const nodes: CycliumNode[] = [];

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 20 });
});
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.stop({ graceMs: 1_000 })));
});
afterAll(async () => {
  await db.drop();
});

async function startNode(
  nodeIdentity: string,
  actors: ActorDefinition[],
  extensions: NodeExtension[] = [],
) {
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
    poller: { enabled: true, intervalMs: 60_000, sourceStack: null },
    actors,
    strategies: { noop: noopStrategy, steps: stepsStrategy },
    dynamicActors: { intervalMs: 100 },
    extensions,
    jitterMs: 20,
    telemetryRollups: false,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  nodes.push(node);
  await node.start();
  return node;
}

async function episodes(actorId: string) {
  const { rows } = await db.pool.query<{
    status: string;
    trigger_type: string;
    input: unknown;
    dedupe_key: string;
  }>(
    "SELECT status, trigger_type, input, dedupe_key FROM cyclium_episodes WHERE actor_id = $1 ORDER BY inserted_at",
    [actorId],
  );
  return rows;
}

describe("createCycliumNode", () => {
  it("wires event triggers on every node: one episode per published event", async () => {
    const watcher = defineActor({
      identifier: "watcher",
      expectations: [
        { id: "on_update", strategy: noopStrategy, trigger: { event: "thing.updated" } },
      ],
    });
    const [a] = [await startNode("node-a", [watcher]), await startNode("node-b", [watcher])];
    await a?.bus.publish("thing.updated", { id: 1 });
    await a?.bus.publish("thing.updated", { id: 1 });
    await vi.waitFor(async () => {
      const rows = await episodes("watcher");
      expect(rows.map((r) => r.status)).toEqual(["completed", "completed"]);
      expect(rows[0]?.input).toEqual({ id: 1 });
      expect(rows[0]?.dedupe_key).toMatch(/^event:watcher:on_update:/);
    });
  });

  it("fires a poll trigger once per interval window across nodes", async () => {
    const poller = defineActor({
      identifier: "poller",
      expectations: [
        {
          id: "check",
          strategy: noopStrategy,
          trigger: {
            poll: () => true,
            intervalMs: 200,
          },
        },
      ],
    });
    await startNode("node-c", [poller]);
    await startNode("node-d", [poller]);
    await vi.waitFor(
      async () => expect((await episodes("poller")).length).toBeGreaterThanOrEqual(3),
      { timeout: 5_000 },
    );
    const rows = await episodes("poller");
    expect(new Set(rows.map((r) => r.dedupe_key)).size).toBe(rows.length);
    expect(rows.every((r) => r.trigger_type === "poll")).toBe(true);
  });

  it("enforces a dynamic actor's cluster-wide limit across nodes (SPEC section 16)", async () => {
    // Stored as JSON: no key function, but a global concurrency on an expectation holds.
    await db.pool.query(
      `INSERT INTO cyclium_agent_definitions (identifier, max_concurrent_episodes, expectations)
       VALUES ('dynlim', 4, '[{"id": "run", "strategy": "steps", "trigger": {"manual": true},
                              "concurrency": {"global": 1}}]')`,
    );
    const pair = [await startNode("node-f", []), await startNode("node-g", [])];
    for (const node of pair) {
      await vi.waitFor(() => expect(node.host.hasActor("dynlim")).toBe(true), { timeout: 3_000 });
    }
    for (let i = 0; i < 6; i += 1) {
      const fired = await pair[i % 2]?.host.fire({
        actorId: "dynlim",
        expectationId: "run",
        triggerType: "manual",
        input: { steps: 1, stepMs: 60 },
      });
      expect(fired).toMatchObject({ kind: "created", deferred: true });
    }
    await vi.waitFor(
      async () =>
        expect((await episodes("dynlim")).map((r) => r.status)).toEqual(
          Array<string>(6).fill("completed"),
        ),
      { timeout: 10_000, interval: 100 },
    );
    // Never two at once, from the episodes' own timestamps (the gate's clock).
    const { rows } = await db.pool.query<{ overlaps: number }>(
      `SELECT count(*)::int AS overlaps FROM cyclium_episodes a JOIN cyclium_episodes b
          ON a.id < b.id AND a.started_at < b.finished_at AND b.started_at < a.finished_at
       WHERE a.actor_id = 'dynlim' AND b.actor_id = 'dynlim'`,
    );
    expect(rows[0]?.overlaps).toBe(0);
  });

  it("starts a dynamic actor's triggers without a restart, and runs extensions with the node", async () => {
    const events: string[] = [];
    const extension: NodeExtension = {
      name: "probe",
      start: (ctx) => {
        events.push(`start:${ctx.nodeIdentity}`);
        return { stop: () => void events.push("stop") };
      },
    };
    const node = await startNode("node-e", [], [extension]);
    expect(events).toEqual(["start:node-e"]);
    await db.pool.query(
      `INSERT INTO cyclium_agent_definitions (identifier, expectations)
       VALUES ('dyn', '[{"id": "on_ping", "strategy": "noop", "trigger": {"event": "dyn.ping"}}]')`,
    );
    await vi.waitFor(() => expect(node.host.hasActor("dyn")).toBe(true), { timeout: 3_000 });
    await node.bus.publish("dyn.ping", { n: 1 });
    await vi.waitFor(async () =>
      expect((await episodes("dyn")).map((r) => r.status)).toEqual(["completed"]),
    );
    await node.stop();
    expect(events).toEqual(["start:node-e", "stop"]);
    const row = await db.pool.query(
      "SELECT status, kind FROM cyclium_nodes WHERE identity = 'node-e'",
    );
    expect(row.rows).toEqual([{ status: "stopped", kind: "worker" }]);
  });
});
