import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ActorRegistry, type ActorRegistryChange } from "./actor-registry";
import { defineActor } from "./define-actor";
import { DynamicActorLoader } from "./dynamic-actor-loader";
import { done } from "./strategy";
import { StrategyRegistry } from "./strategy-registry";

let db: TestDatabase;
const loaders: DynamicActorLoader[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(loaders.splice(0).map((loader) => loader.stop()));
  await db.pool.query("DELETE FROM cyclium_agent_definitions");
});
afterAll(async () => {
  await db.drop();
});

const strategies = new StrategyRegistry({ summarise: { init: () => null, step: () => done() } });

async function insert(identifier: string, expectations: unknown, maxConcurrent = 4) {
  await db.pool.query(
    `INSERT INTO cyclium_agent_definitions (identifier, max_concurrent_episodes, expectations)
     VALUES ($1, $2, $3::jsonb)`,
    [identifier, maxConcurrent, JSON.stringify(expectations)],
  );
}

async function start(intervalMs = 60_000) {
  const compiled = defineActor({
    identifier: "compiled_one",
    expectations: [{ id: "x", strategy: "summarise", trigger: { manual: true } }],
  });
  const registry = new ActorRegistry({ actors: [compiled], strategies });
  const changes: ActorRegistryChange[] = [];
  registry.onChange((change) => changes.push(change));
  const loader = await DynamicActorLoader.start({ db: db.pool, registry, env: null, intervalMs });
  loaders.push(loader);
  return { registry, loader, changes };
}

const daily = [
  {
    id: "daily",
    strategy: "summarise",
    trigger: { schedule: "0 9 * * *", timezone: "Europe/Paris" },
    recoveryPolicy: "restart",
  },
];

describe("DynamicActorLoader", () => {
  it("adds, changes and removes actors as their rows change", async () => {
    await insert("reporter", daily);
    const { registry, loader, changes } = await start();
    expect(registry.get("reporter")).toMatchObject({ source: "dynamic", maxConcurrentEpisodes: 4 });
    expect(registry.recoveryPolicyFor("reporter", "daily")).toBe("restart");
    expect(registry.list().map((a) => a.identifier)).toEqual(["compiled_one", "reporter"]);

    await db.pool.query(
      "UPDATE cyclium_agent_definitions SET max_concurrent_episodes = 2, updated_at = now()",
    );
    await loader.reload();
    expect(registry.get("reporter")?.maxConcurrentEpisodes).toBe(2);
    await loader.reload();
    await db.pool.query("UPDATE cyclium_agent_definitions SET enabled = false");
    await loader.reload();
    expect(registry.get("reporter")).toBeUndefined();
    expect(changes.map((c) => [c.added.length, c.changed.length, c.removed.length])).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
  });

  it("skips an invalid row and keeps the others, and never shadows a compiled actor", async () => {
    await insert("broken", [{ id: "x", strategy: "summarise", trigger: { sometimes: true } }]);
    await insert("fine", daily);
    await insert("compiled_one", daily, 9);
    const { registry } = await start();
    expect(registry.get("broken")).toBeUndefined();
    expect(registry.get("fine")).toBeDefined();
    expect(registry.get("compiled_one")?.source).toBe("compiled");
  });

  it("loads a dynamic actor naming an unregistered strategy (its episodes fail with unknown_strategy)", async () => {
    await insert("misnamed", [{ id: "x", strategy: "not_registered", trigger: { manual: true } }]);
    const { registry } = await start();
    const expectation = registry.expectation("misnamed", "x");
    expect(expectation && registry.resolveStrategy(expectation)).toEqual({
      kind: "unknown_strategy",
      name: "not_registered",
    });
  });

  it("picks a new row up on its interval, without a restart", async () => {
    const { registry } = await start(100);
    await insert("late", daily);
    await vi.waitFor(() => expect(registry.get("late")).toBeDefined(), { timeout: 3_000 });
  });
});
