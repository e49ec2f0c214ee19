// The console as its route files see it, against a test database: the process pool and console
// runtime the route modules use (server/db.ts, runtime/console-runtime.ts) point at the test's
// database and a stub workflow starter; API tokens of each role; two registered triggers and a
// live worker with the strategy `summarise`. For the tests that call the REST API end to end.
import {
  createApiToken,
  registerNode,
  TriggerRegistry,
  TriggerScheduler,
  type WorkflowStarter,
  WorkflowRegistry,
  CycliumError,
  defineTrigger,
  defineWorkflow,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { z } from "zod";
import { setConsoleRuntime, type TConsoleRuntime } from "../../../runtime/console-runtime";

export interface TConsoleFixture {
  database: TestDatabase;
  /** `otherTenant`: an admin token limited to tenant `a`. */
  tokens: Record<"admin" | "operator" | "viewer" | "otherTenant", string>;
  stop(): Promise<void>;
}

const step = { name: "check", actor: "resource_monitor", expectation: "check_resource_limits" };
const workflows = new WorkflowRegistry().register(
  defineWorkflow({ name: "review", steps: [step] }),
);
/** `nightly` fires `review`; `retired`'s workflow is in no deployment the console runs (409). */
const triggers = new TriggerRegistry().register(
  defineTrigger({ name: "nightly", on: "review", cron: "0 2 * * *", timezone: "UTC" }),
  defineTrigger({ name: "retired", on: "retired_flow", intervalMs: 60_000 }),
);
const startWorkflow: WorkflowStarter = ({ workflow }) =>
  workflow === "retired_flow"
    ? Promise.reject(new CycliumError("not_found", `No workflow "${workflow}".`))
    : Promise.resolve({ instanceId: crypto.randomUUID() });

const globalForDb = globalThis as { cycliumWebPool?: unknown };

export async function startConsoleFixture(): Promise<TConsoleFixture> {
  const database = await createTestDatabase();
  const db = database.pool;
  globalForDb.cycliumWebPool = db;
  // `resource_monitor` is the deployment's actor: a dynamic actor may not take its name.
  setConsoleRuntime({
    nodeIdentity: "web-test",
    registry: {
      isCompiled: (identifier: string) => identifier === "resource_monitor",
      list: () => [],
      // An actor whose episodes wait for `approval` (durable waits' signal endpoint).
      expectation: (actorId: string) =>
        actorId === "approver"
          ? { signals: { approval: z.strictObject({ approved: z.boolean() }) } }
          : undefined,
    },
    triggers,
    workflows,
    startWorkflow,
  } as unknown as TConsoleRuntime);
  const tokens = { admin: "", operator: "", viewer: "", otherTenant: "" };
  for (const role of ["admin", "operator", "viewer"] as const) {
    tokens[role] = (await createApiToken({ db, name: `${role}-ci`, role, createdBy: null })).token;
  }
  tokens.otherTenant = (
    await createApiToken({ db, name: "a-only", role: "admin", tenants: ["a"], createdBy: null })
  ).token;
  await registerNode({
    db,
    node: { identity: "w1", kind: "worker", mode: "full", strategies: ["summarise"] },
  });
  for (const definition of triggers.list()) {
    const only = new TriggerRegistry().register(definition);
    await new TriggerScheduler({
      db,
      env: null,
      node: "n",
      triggers: only,
      startWorkflow,
    }).register();
  }
  return {
    database,
    tokens,
    async stop() {
      setConsoleRuntime(null);
      delete globalForDb.cycliumWebPool;
      await database.drop();
    },
  };
}
