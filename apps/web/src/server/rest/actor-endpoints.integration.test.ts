import {
  ActorRegistry,
  loadAgentDefinitions,
  StrategyRegistry,
  registerNode,
  createApiToken,
  defineActor,
  done,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRows, seedTestUsers } from "../auth/testing/auth-test-kit";
import { createActorEndpoints } from "./actor-endpoints";
import type { TRouteHandler } from "./rest-endpoint";
import { setConsoleRuntime, type TConsoleRuntime } from "../runtime/console-runtime";

let database: TestDatabase;
const tokens: Record<"admin" | "operator" | "viewer" | "tenantAdmin" | "usersAdmin", string> = {
  admin: "",
  operator: "",
  viewer: "",
  /** An admin token limited to tenant `a`. */
  tenantAdmin: "",
  /** An admin token made by the seeded admin user (disabled by a test). */
  usersAdmin: "",
};
let adminUserId = "";
let endpoints: ReturnType<typeof createActorEndpoints>;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.pool;
  for (const role of ["admin", "operator", "viewer"] as const) {
    tokens[role] = (await createApiToken({ db, name: `${role}-ci`, role, createdBy: null })).token;
  }
  tokens.tenantAdmin = (
    await createApiToken({
      db,
      name: "tenant-a-ci",
      role: "admin",
      tenants: ["a"],
      createdBy: null,
    })
  ).token;
  adminUserId = (await seedTestUsers(db)).admin.id;
  tokens.usersAdmin = (
    await createApiToken({ db, name: "users-admin-ci", role: "admin", createdBy: adminUserId })
  ).token;
  // Live workers that registered the strategy `summarise`, of the unset env and of tenant `a`.
  await registerNode({
    db,
    node: { identity: "w1", kind: "worker", mode: "full", strategies: ["summarise"] },
  });
  await registerNode({
    db,
    node: { identity: "w-a", kind: "worker", mode: "full", env: "a", strategies: ["summarise"] },
  });
  endpoints = createActorEndpoints({ getDb: () => db });
});

afterAll(async () => {
  await database.drop();
});

const BASE = "http://console.test/api/v1/tenants";

async function call(
  handler: TRouteHandler,
  path: string,
  params: Record<string, string>,
  role: keyof typeof tokens,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers = new Headers({ authorization: `Bearer ${tokens[role]}` });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const response = await handler(
    new Request(`${BASE}${path}`, {
      method: init.method ?? "GET",
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
    { params: Promise.resolve(params) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const tenant = { t: "default" };
const reporter = { t: "default", name: "reporter" };
const definition = {
  identifier: "reporter",
  expectations: [{ id: "daily", strategy: "summarise", trigger: { schedule: "0 9 * * *" } }],
};

describe("REST v1 dynamic actors", () => {
  it("creates with an admin token, then lists, reads, edits, disables and enables", async () => {
    const created = await call(endpoints.create, "/default/actors", tenant, "admin", {
      method: "POST",
      body: definition,
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        tenant_id: "default",
        actor: { identifier: "reporter", enabled: true, maxConcurrentEpisodes: 3 },
      },
    });
    expect(await auditRows(database.pool, "agentDefinitions.create")).toContainEqual(
      expect.objectContaining({ principal: "token:admin-ci", outcome: "ok", target: "reporter" }),
    );
    const list = await call(endpoints.list, "/default/actors", tenant, "viewer");
    expect(list).toMatchObject({ status: 200, body: { total: 1 } });
    const patched = await call(endpoints.patch, "/default/actors/reporter", reporter, "admin", {
      method: "PATCH",
      body: { maxConcurrentEpisodes: 2 },
    });
    expect(patched).toMatchObject({ status: 200, body: { actor: { maxConcurrentEpisodes: 2 } } });
    const disabled = await call(
      endpoints.disable,
      "/default/actors/reporter/disable",
      reporter,
      "admin",
      {
        method: "POST",
      },
    );
    expect(disabled).toMatchObject({ status: 200, body: { actor: { enabled: false } } });
    await call(endpoints.enable, "/default/actors/reporter/enable", reporter, "admin", {
      method: "POST",
    });
    const read = await call(endpoints.get, "/default/actors/reporter", reporter, "viewer");
    expect(read).toMatchObject({
      status: 200,
      body: { actor: { enabled: true, maxConcurrentEpisodes: 2, problem: null } },
    });
    const missing = { t: "default", name: "nobody" };
    expect(await call(endpoints.get, "/default/actors/nobody", missing, "viewer")).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
  });

  it("answers bad input with 400 naming the field, and stores nothing", async () => {
    const badPolicy = await call(endpoints.create, "/default/actors", tenant, "admin", {
      method: "POST",
      body: {
        identifier: "bad_policy",
        expectations: [{ ...definition.expectations[0], recovery_policy: "restart" }],
      },
    });
    expect(badPolicy.status).toBe(400);
    expect(badPolicy.body).toMatchObject({ code: "invalid_input" });
    expect(String(badPolicy.body.error)).toMatch(/recovery_policy[\s\S]*expectations\[0\]/);
    const unknownStrategy = await call(endpoints.create, "/default/actors", tenant, "admin", {
      method: "POST",
      body: {
        identifier: "bad_strategy",
        expectations: [{ ...definition.expectations[0], strategy: "sumarise" }],
      },
    });
    expect(unknownStrategy.status).toBe(400);
    expect(String(unknownStrategy.body.error)).toContain(
      'expectations.0.strategy: "sumarise" is not registered by any live worker (live workers registered: summarise)',
    );
    const duplicate = await call(endpoints.create, "/default/actors", tenant, "admin", {
      method: "POST",
      body: definition,
    });
    expect(duplicate).toMatchObject({ status: 409, body: { code: "conflict" } });
    const list = await call(endpoints.list, "/default/actors", tenant, "admin");
    expect((list.body.items as { identifier: string }[]).map((item) => item.identifier)).toEqual([
      "reporter",
    ]);
  });

  it("refuses writes below admin (403, audited)", async () => {
    for (const role of ["viewer", "operator"] as const) {
      const refused = await call(endpoints.create, "/default/actors", tenant, role, {
        method: "POST",
        body: { ...definition, identifier: `by_${role}` },
      });
      expect(refused).toMatchObject({ status: 403, body: { code: "forbidden" } });
      const patch = await call(endpoints.patch, "/default/actors/reporter", reporter, role, {
        method: "PATCH",
        body: { maxConcurrentEpisodes: 9 },
      });
      expect(patch.status).toBe(403);
    }
    expect(await auditRows(database.pool, "agentDefinitions.create")).toContainEqual(
      expect.objectContaining({ principal: "token:viewer-ci", outcome: "refused" }),
    );
  });

  it("keeps a tenant-limited token to its own tenant's actors, which run there only", async () => {
    const tenantA = { t: "a" };
    const created = await call(endpoints.create, "/a/actors", tenantA, "tenantAdmin", {
      method: "POST",
      body: { ...definition, identifier: "by_tenant_a" },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { tenant_id: "a", actor: { identifier: "by_tenant_a", env: "a" } },
    });
    // Only tenant a's nodes load it: not the unset env's (`public`/`default`), nor another's.
    expect(
      (await loadAgentDefinitions({ env: "a" }, database.pool)).map((r) => r.identifier),
    ).toEqual(["by_tenant_a"]);
    for (const env of [null, "b"]) {
      expect(
        (await loadAgentDefinitions({ env }, database.pool)).map((r) => r.identifier),
      ).not.toContain("by_tenant_a");
    }
    // Tenant a's own: listed, read, changed and disabled by its token.
    const listedA = await call(endpoints.list, "/a/actors", tenantA, "tenantAdmin");
    expect(listedA.body).toMatchObject({ tenant_id: "a", total: 1 });
    const ownA = { t: "a", name: "by_tenant_a" };
    const patched = await call(endpoints.patch, "/a/actors/by_tenant_a", ownA, "tenantAdmin", {
      method: "PATCH",
      body: { maxConcurrentEpisodes: 2 },
    });
    expect(patched).toMatchObject({ status: 200, body: { actor: { maxConcurrentEpisodes: 2 } } });
    const disabled = await call(
      endpoints.disable,
      "/a/actors/by_tenant_a/disable",
      ownA,
      "tenantAdmin",
      {
        method: "POST",
      },
    );
    expect(disabled).toMatchObject({ status: 200, body: { actor: { enabled: false } } });

    // Another tenant's actors: not created, changed, enabled or seen (403, audited).
    for (const t of ["default", "public", "b"]) {
      const other = await call(endpoints.create, `/${t}/actors`, { t }, "tenantAdmin", {
        method: "POST",
        body: { ...definition, identifier: "by_tenant_a_elsewhere" },
      });
      expect(other).toMatchObject({ status: 403, body: { code: "tenant_access_denied" } });
    }
    const reporterOfDefault = { t: "default", name: "reporter" };
    const attempts = [
      call(endpoints.patch, "/default/actors/reporter", reporterOfDefault, "tenantAdmin", {
        method: "PATCH",
        body: { maxConcurrentEpisodes: 9 },
      }),
      call(endpoints.put, "/default/actors/reporter", reporterOfDefault, "tenantAdmin", {
        method: "PUT",
        body: definition,
      }),
      call(
        endpoints.disable,
        "/default/actors/reporter/disable",
        reporterOfDefault,
        "tenantAdmin",
        {
          method: "POST",
        },
      ),
      call(endpoints.enable, "/default/actors/reporter/enable", reporterOfDefault, "tenantAdmin", {
        method: "POST",
      }),
      call(endpoints.get, "/default/actors/reporter", reporterOfDefault, "tenantAdmin"),
      call(endpoints.list, "/default/actors", tenant, "tenantAdmin"),
    ];
    for (const refused of await Promise.all(attempts)) {
      expect(refused).toMatchObject({ status: 403, body: { code: "tenant_access_denied" } });
    }
    // Through its own tenant's path, another tenant's actor does not exist.
    const reporterViaA = { t: "a", name: "reporter" };
    expect(
      await call(endpoints.get, "/a/actors/reporter", reporterViaA, "tenantAdmin"),
    ).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
    expect(
      await call(endpoints.patch, "/a/actors/reporter", reporterViaA, "tenantAdmin", {
        method: "PATCH",
        body: { maxConcurrentEpisodes: 9 },
      }),
    ).toMatchObject({ status: 404 });
    const { rows } = await database.pool.query<{ env: string | null; max: number }>(
      `SELECT env, max_concurrent_episodes AS max FROM cyclium_agent_definitions
        WHERE identifier IN ('reporter', 'by_tenant_a_elsewhere') ORDER BY env`,
    );
    expect(rows).toEqual([{ env: null, max: 2 }]);
    expect(await auditRows(database.pool, "agentDefinitions.create")).toContainEqual(
      expect.objectContaining({ principal: "token:tenant-a-ci", outcome: "refused" }),
    );
    // A strategy counts only if a worker of the actor's own env registered it: env b has none.
    const noWorker = await call(endpoints.create, "/b/actors", { t: "b" }, "admin", {
      method: "POST",
      body: { ...definition, identifier: "in_b" },
    });
    expect(noWorker.status).toBe(400);
    expect(String(noWorker.body.error)).toContain(
      '"summarise" is not registered by any live worker of env "b"',
    );
    // The unset env's own list does not show tenant a's actor.
    const listedDefault = await call(endpoints.list, "/default/actors", tenant, "admin");
    expect((listedDefault.body.items as { identifier: string }[]).map((i) => i.identifier)).toEqual(
      ["reporter"],
    );
  });

  it("stops a token when its creator is disabled, and lets it work again when enabled", async () => {
    const before = await call(endpoints.list, "/default/actors", tenant, "usersAdmin");
    expect(before.status).toBe(200);
    await database.pool.query("UPDATE cyclium_users SET disabled_at = now() WHERE id = $1", [
      adminUserId,
    ]);
    const refused = await call(endpoints.list, "/default/actors", tenant, "usersAdmin");
    expect(refused.status).toBe(401);
    await database.pool.query("UPDATE cyclium_users SET disabled_at = NULL WHERE id = $1", [
      adminUserId,
    ]);
    const after = await call(endpoints.list, "/default/actors", tenant, "usersAdmin");
    expect(after.status).toBe(200);
  });

  it("answers 409 naming the clash for a deployment actor's name, and stores nothing", async () => {
    // The console's node, as it runs the deployment's compiled actor `billing`.
    const billing = defineActor({
      identifier: "billing",
      expectations: [
        {
          id: "charge",
          strategy: { init: () => null, step: () => done() },
          trigger: { manual: true },
        },
      ],
    });
    const registry = new ActorRegistry({ strategies: new StrategyRegistry({}), actors: [billing] });
    setConsoleRuntime({ nodeIdentity: "web-test", registry } as unknown as TConsoleRuntime);
    try {
      const clash = await call(endpoints.create, "/default/actors", tenant, "admin", {
        method: "POST",
        body: { ...definition, identifier: "billing" },
      });
      expect(clash).toMatchObject({ status: 409, body: { code: "conflict" } });
      expect(String(clash.body.error)).toContain('"billing" is an actor of the deployment');
      const { rows } = await database.pool.query(
        "SELECT 1 FROM cyclium_agent_definitions WHERE identifier = 'billing'",
      );
      expect(rows).toHaveLength(0);
    } finally {
      setConsoleRuntime(null);
    }
  });
});
