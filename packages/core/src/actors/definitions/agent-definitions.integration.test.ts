import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PgBus } from "../../bus/index";
import { isCycliumError } from "../../errors/index";
import { registerNode } from "../../nodes/index";
import { ActorRegistry } from "../actor-registry";
import { DynamicActorLoader } from "../dynamic-actor-loader";
import { loadAgentDefinitions } from "../load-agent-definitions";
import { done } from "../strategy";
import { StrategyRegistry } from "../strategy-registry";
import { createAgentDefinition } from "./create-agent-definition";
import { getAgentDefinition } from "./get-agent-definition";
import { listAgentDefinitions } from "./list-agent-definitions";
import { setAgentDefinitionEnabled } from "./set-agent-definition-enabled";
import { updateAgentDefinition } from "./update-agent-definition";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  // A live worker registered `summarise`; a console's own strategies never count.
  await registerNode({
    db: db.pool,
    node: { identity: "w1", kind: "worker", mode: "full", strategies: ["summarise"] },
  });
  await registerNode({
    db: db.pool,
    node: { identity: "web1", kind: "web", mode: "trigger_only", strategies: ["console_only"] },
  });
  // Envs a and b each have a worker; a dynamic actor's strategies are checked against its env's.
  for (const env of ["a", "b"]) {
    await registerNode({
      db: db.pool,
      node: { identity: `w-${env}`, kind: "worker", mode: "full", env, strategies: ["summarise"] },
    });
  }
});
afterAll(async () => {
  await db.drop();
});

const manual = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  strategy: "summarise",
  trigger: { manual: true },
  ...extra,
});

/** The invalid_input message a write is refused with. */
async function refusal(write: Promise<unknown>): Promise<string> {
  const error = await write.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isCycliumError(error, "invalid_input"))
    throw new Error(`expected invalid_input, got ${String(error)}`);
  return error.message;
}

describe("agent definitions", () => {
  it("creates, reads, lists, edits, disables and enables a dynamic actor", async () => {
    const created = await createAgentDefinition(
      {
        env: null,
        definition: {
          identifier: "reporter",
          expectations: [manual("daily", { recoveryPolicy: "restart" })],
        },
      },
      db.pool,
    );
    expect(created).toMatchObject({
      kind: "created",
      definition: {
        identifier: "reporter",
        enabled: true,
        maxConcurrentEpisodes: 3,
        problem: null,
      },
    });
    // Stored as the loader reads it, defaults filled in.
    expect(await getAgentDefinition({ env: null, identifier: "reporter" }, db.pool)).toMatchObject({
      expectations: [
        {
          id: "daily",
          recoveryPolicy: "restart",
          budget: { maxTurns: 12, maxTokens: 25_000, maxWallMs: 120_000 },
        },
      ],
    });
    expect(
      await createAgentDefinition(
        { env: null, definition: { identifier: "reporter", expectations: [manual("x")] } },
        db.pool,
      ),
    ).toEqual({ kind: "conflict", identifier: "reporter" });

    const edited = await updateAgentDefinition(
      {
        env: null,
        identifier: "reporter",
        changes: { maxConcurrentEpisodes: 2, stacks: ["blue"] },
      },
      db.pool,
    );
    expect(edited).toMatchObject({
      kind: "updated",
      definition: { maxConcurrentEpisodes: 2, stacks: ["blue"] },
    });

    await setAgentDefinitionEnabled({ env: null, identifier: "reporter", enabled: false }, db.pool);
    expect(await loadAgentDefinitions({ env: null }, db.pool)).toEqual([]);
    expect(
      (await listAgentDefinitions({ env: null }, db.pool)).map((d) => [d.identifier, d.enabled]),
    ).toEqual([["reporter", false]]);
    await setAgentDefinitionEnabled({ env: null, identifier: "reporter", enabled: true }, db.pool);
    expect(
      (await loadAgentDefinitions({ env: null }, db.pool)).map((row) => row.identifier),
    ).toEqual(["reporter"]);
    expect(
      await setAgentDefinitionEnabled({ env: null, identifier: "nobody", enabled: true }, db.pool),
    ).toEqual({ kind: "not_found", identifier: "nobody" });
  });

  it("refuses what the loader would skip, naming the field, and stores nothing", async () => {
    const badPolicy = await refusal(
      createAgentDefinition(
        {
          env: null,
          definition: {
            identifier: "bad1",
            expectations: [manual("a", { recoveryPolicy: "explode" })],
          },
        },
        db.pool,
      ),
    );
    expect(badPolicy).toContain("expectations.0.recoveryPolicy");
    // The snake_case spelling recovery once accepted is refused, not silently ignored.
    const snake = await refusal(
      createAgentDefinition(
        {
          env: null,
          definition: {
            identifier: "bad2",
            expectations: [manual("a", { recovery_policy: "restart" })],
          },
        },
        db.pool,
      ),
    );
    expect(snake).toMatch(/expectations\.0.*recovery_policy/);
    const strategy = await refusal(
      createAgentDefinition(
        {
          env: null,
          definition: {
            identifier: "bad3",
            expectations: [{ ...manual("a"), strategy: "console_only" }],
          },
        },
        db.pool,
      ),
    );
    expect(strategy).toContain(
      'expectations.0.strategy: "console_only" is not registered by any live worker (live workers registered: summarise)',
    );
    const trigger = await refusal(
      createAgentDefinition(
        {
          env: null,
          definition: {
            identifier: "bad4",
            expectations: [{ ...manual("a"), trigger: { evnt: "x" } }],
          },
        },
        db.pool,
      ),
    );
    expect(trigger).toContain("expectations.0.trigger: unknown trigger kind");
    expect(
      await refusal(
        createAgentDefinition(
          { env: null, definition: { identifier: "9lives", expectations: [] } },
          db.pool,
        ),
      ),
    ).toMatch(/identifier: must start with a letter[\s\S]*expectations: an actor needs/);
    const edit = await refusal(
      updateAgentDefinition(
        {
          env: null,
          identifier: "reporter",
          changes: { expectations: [manual("a"), manual("a")] },
        },
        db.pool,
      ),
    );
    expect(edit).toContain('expectations.1.id: duplicate expectation id "a"');
    expect((await listAgentDefinitions({ env: null }, db.pool)).map((d) => d.identifier)).toEqual([
      "reporter",
    ]);
  });

  it("reports a row written by hand that the loader skips, and refuses to enable it", async () => {
    await db.pool.query(
      `INSERT INTO cyclium_agent_definitions (identifier, enabled, expectations)
       VALUES ('handmade', false, $1::jsonb)`,
      [JSON.stringify([{ ...manual("a"), recovery_policy: "restart" }])],
    );
    const row = await getAgentDefinition({ env: null, identifier: "handmade" }, db.pool);
    expect(row?.problem).toContain("recovery_policy");
    const message = await refusal(
      setAgentDefinitionEnabled({ env: null, identifier: "handmade", enabled: true }, db.pool),
    );
    expect(message).toContain("recovery_policy");
  });

  it("keeps each env's dynamic actors to that env", async () => {
    const inA = { identifier: "tenant_report", expectations: [manual("go")] };
    expect(await createAgentDefinition({ env: "a", definition: inA }, db.pool)).toMatchObject({
      kind: "created",
      definition: { env: "a" },
    });
    // Another env neither sees nor changes it, and may hold its own actor of that name.
    expect(await getAgentDefinition({ env: null, identifier: "tenant_report" }, db.pool)).toBe(
      null,
    );
    expect((await listAgentDefinitions({ env: "b" }, db.pool)).map((d) => d.identifier)).toEqual(
      [],
    );
    expect(
      await setAgentDefinitionEnabled(
        { env: "b", identifier: "tenant_report", enabled: false },
        db.pool,
      ),
    ).toEqual({ kind: "not_found", identifier: "tenant_report" });
    expect(
      await createAgentDefinition({ env: "b", definition: { ...inA, enabled: false } }, db.pool),
    ).toMatchObject({ kind: "created", definition: { env: "b", enabled: false } });
    // Each env's nodes load their own env's rows only.
    const loaded = async (env: string | null) =>
      (await loadAgentDefinitions({ env }, db.pool)).map((row) => row.identifier);
    expect(await loaded("a")).toEqual(["tenant_report"]);
    expect(await loaded("b")).toEqual([]);
    expect(await loaded(null)).not.toContain("tenant_report");
    expect(
      await getAgentDefinition({ env: "a", identifier: "tenant_report" }, db.pool),
    ).toMatchObject({ env: "a", enabled: true });
  });

  it("reaches a node's loader through the bus, well before its interval", async () => {
    const bus = await PgBus.start({
      db: db.pool,
      connection: db.url,
      nodeIdentity: "w1",
      cleanup: false,
    });
    const strategies = new StrategyRegistry({
      summarise: { init: () => null, step: () => done() },
    });
    const registry = new ActorRegistry({ actors: [], strategies });
    // A one-minute interval: only the change notification can make the loader reload in time.
    const loader = await DynamicActorLoader.start({
      db: db.pool,
      registry,
      env: null,
      bus,
      intervalMs: 60_000,
    });
    try {
      await createAgentDefinition(
        { env: null, definition: { identifier: "live", expectations: [manual("go")] } },
        db.pool,
      );
      await vi.waitFor(() => expect(registry.get("live")).toBeDefined(), { timeout: 3_000 });
      await setAgentDefinitionEnabled({ env: null, identifier: "live", enabled: false }, db.pool);
      await vi.waitFor(() => expect(registry.get("live")).toBeUndefined(), { timeout: 3_000 });
    } finally {
      await loader.stop();
      await bus.close();
    }
  });
});
