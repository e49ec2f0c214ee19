// Issue 20's acceptance: Cloacina's own clients (cloacinactl, its generated Python client) can
// use the trigger API. Every request goes in at Cloacina's path `/v1/tenants/public/...` through
// the console's proxy (which must route it, not answer the sign-in page) to the handler the
// rewritten `/api/v1` path names, with the bodies cloacinactl sends; every answer, errors
// included, is checked against the shapes in testing/cloacina-shapes.ts.
import {
  createApiToken,
  TriggerRegistry,
  TriggerScheduler,
  type WorkflowStarter,
  WorkflowRegistry,
  defineTrigger,
  defineWorkflow,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { proxy } from "../../proxy";
import { seedTestUsers } from "../auth/testing/auth-test-kit";
import {
  ZCloacinaError,
  ZCloacinaFire,
  ZCloacinaInspect,
  ZCloacinaList,
  ZCloacinaPauseResume,
  ZTriggerInterface,
} from "./testing/cloacina-shapes";
import { createTriggerEndpoints } from "./trigger-endpoints";

// The proxy's module graph reaches the pool module, marked server-only; a /v1 path queries nothing.
vi.mock("server-only", () => ({}));

let database: TestDatabase;
let operator: string;
let viewer: string;
/** Limited to the env `staging` / to the unset env (issue 20: tenant_access_denied). */
let stagingOnly: string;
let publicOnly: string;
let endpoints: ReturnType<typeof createTriggerEndpoints>;
let broken = false;

const step = { name: "check", actor: "resource_monitor", expectation: "check_resource_limits" };
const workflows = new WorkflowRegistry().register(
  defineWorkflow({ name: "review", steps: [step] }),
  defineWorkflow({ name: "sensor_flow", steps: [step] }),
);
const triggers = new TriggerRegistry().register(
  defineTrigger({ name: "nightly", on: "review", cron: "0 2 * * *", timezone: "UTC" }),
  defineTrigger({ name: "sensor", on: "sensor_flow", poll: () => false, pollIntervalMs: 5_000 }),
  // An interval schedule (issue 20) is one of Cloacina's `trigger` items, its interval the poll's.
  defineTrigger({ name: "heartbeat", on: "sensor_flow", intervalMs: 30_000 }),
);
const startWorkflow: WorkflowStarter = () =>
  broken
    ? Promise.reject(new Error("connection reset"))
    : Promise.resolve({ instanceId: crypto.randomUUID() });

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.pool;
  const users = await seedTestUsers(db);
  // Registered one after the other: Cloacina lists the newest first.
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
  operator = (await createApiToken({ db, name: "ci", role: "operator", createdBy: users.admin.id }))
    .token;
  viewer = (await createApiToken({ db, name: "dash", role: "viewer", createdBy: null })).token;
  stagingOnly = (
    await createApiToken({
      db,
      name: "staging-ci",
      role: "operator",
      tenants: ["staging"],
      createdBy: null,
    })
  ).token;
  publicOnly = (
    await createApiToken({
      db,
      name: "public-dash",
      role: "viewer",
      tenants: ["public"],
      createdBy: null,
    })
  ).token;
  endpoints = createTriggerEndpoints({
    getDb: () => db,
    getTriggerServices: () => ({ startWorkflow, triggers, workflows }),
  });
});

afterAll(async () => {
  await database.drop();
});

const ROUTE =
  /^\/api\/v1\/tenants\/([^/]+)\/triggers(?:\/([^/]+)(?:\/(fire|pause|resume|interface))?)?$/;

/** What Next.js does with a request: the proxy first, then the route its rewrite names. */
async function send(
  method: "GET" | "POST",
  path: string,
  options: { token?: string; body?: string; requestId?: string } = {},
): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json" });
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  if (options.requestId) headers.set("x-request-id", options.requestId);
  const url = `http://console.test${path}`;
  const routed = await proxy(new NextRequest(url, { method, headers }));
  const rewrite = routed.headers.get("x-middleware-rewrite");
  if (rewrite === null) throw new Error(`${path} was not routed to the API (${routed.status})`);
  const target = new URL(rewrite);
  const match = ROUTE.exec(target.pathname);
  if (!match) throw new Error(`no trigger route for ${target.pathname}`);
  const [, t, name, action] = match;
  const handler =
    name === undefined
      ? endpoints.list
      : action === undefined
        ? endpoints.inspect
        : action === "interface"
          ? endpoints.describe
          : endpoints[action as "fire" | "pause" | "resume"];
  const params = { t: decodeURIComponent(t ?? ""), name: decodeURIComponent(name ?? "") };
  const response = await handler(
    new Request(target, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: options.body }),
    }),
    { params: Promise.resolve(params) },
  );
  expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  return response;
}

async function expectShape<S extends z.ZodType>(
  response: Response,
  status: number,
  schema: S,
): Promise<z.output<S>> {
  const body: unknown = await response.json();
  expect({ status: response.status, body }).toMatchObject({ status });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error(`${JSON.stringify(body)}: ${parsed.error.message}`);
  return parsed.data;
}

const BASE = "/v1/tenants/public/triggers";

describe("Cloacina's trigger API at /v1, tenant public", () => {
  it("lists newest first and inspects by trigger or workflow name", async () => {
    const list = await expectShape(await send("GET", BASE, { token: viewer }), 200, ZCloacinaList);
    expect(list).toMatchObject({ tenant_id: "public", total: 3 });
    expect(list.items.map((item) => [item.trigger_name, item.schedule_type])).toEqual([
      ["heartbeat", "trigger"],
      ["sensor", "trigger"],
      ["nightly", "cron"],
    ]);
    // Our own fields stand beside Cloacina's (the shape above keeps only Cloacina's).
    const raw = (await (await send("GET", BASE, { token: viewer })).json()) as {
      items: Record<string, unknown>[];
    };
    expect(raw.items[0]).toMatchObject({
      cron_expression: null,
      poll_interval_ms: 30_000,
      kind: "interval",
      interval_ms: 30_000,
    });
    const page = await send("GET", `${BASE}?limit=1&offset=2`, { token: viewer });
    expect((await expectShape(page, 200, ZCloacinaList)).items).toHaveLength(1);

    for (const name of ["nightly", "review"]) {
      const inspect = await send("GET", `${BASE}/${name}`, { token: viewer });
      const body = await expectShape(inspect, 200, ZCloacinaInspect);
      expect(body.schedule).toMatchObject({
        trigger_name: "nightly",
        cron_expression: "0 2 * * *",
      });
    }
    const described = await send("GET", `${BASE}/sensor/interface`, { token: viewer });
    expect((await expectShape(described, 200, ZTriggerInterface)).name).toBe("sensor");
  });

  it("fires with each body cloacinactl sends, never deduplicated, also while paused", async () => {
    const executions = new Set<string>();
    for (const body of [
      '{"event": null}',
      '{"event": {"region": "eu"}}',
      "{}",
      '{"event": null}',
    ]) {
      const fire = await send("POST", `${BASE}/nightly/fire`, { token: operator, body });
      const answer = await expectShape(fire, 200, ZCloacinaFire);
      expect(answer).toMatchObject({ tenant_id: "public", trigger: "nightly", fired: 1 });
      for (const execution of answer.executions) executions.add(execution.execution_id);
    }
    expect(executions.size).toBe(4);

    const pause = await send("POST", `${BASE}/review/pause`, { token: operator });
    expect(await expectShape(pause, 200, ZCloacinaPauseResume)).toMatchObject({
      name: "review",
      status: "paused",
      paused: true,
    });
    const whilePaused = await send("POST", `${BASE}/nightly/fire`, { token: operator, body: "{}" });
    expect((await expectShape(whilePaused, 200, ZCloacinaFire)).fired).toBe(1);
    const inspect = await send("GET", `${BASE}/nightly`, { token: viewer });
    const inspected = await expectShape(inspect, 200, ZCloacinaInspect);
    expect(inspected.schedule).toMatchObject({ paused: true, enabled: false });
    expect(inspected.recent_executions).toHaveLength(5);
    const resume = await send("POST", `${BASE}/nightly/resume`, { token: operator });
    expect(await expectShape(resume, 200, ZCloacinaPauseResume)).toMatchObject({
      status: "resumed",
      paused: false,
    });
  });

  it("answers errors as {error, code} with Cloacina's codes", async () => {
    const cases: [Promise<Response>, number, string][] = [
      [send("GET", BASE), 401, "unauthorized"],
      [
        send("POST", `${BASE}/nightly/fire`, { token: "cyc_not-a-token-0123456789" }),
        401,
        "unauthorized",
      ],
      [send("POST", `${BASE}/nightly/pause`, { token: viewer }), 403, "forbidden"],
      // A token limited to other tenants, on every endpoint (before its role is considered).
      [send("GET", BASE, { token: stagingOnly }), 403, "tenant_access_denied"],
      [send("GET", `${BASE}/nightly`, { token: stagingOnly }), 403, "tenant_access_denied"],
      [
        send("GET", `${BASE}/nightly/interface`, { token: stagingOnly }),
        403,
        "tenant_access_denied",
      ],
      [
        send("POST", `${BASE}/nightly/fire`, { token: stagingOnly, body: '{"event": null}' }),
        403,
        "tenant_access_denied",
      ],
      [send("POST", `${BASE}/nightly/pause`, { token: stagingOnly }), 403, "tenant_access_denied"],
      [send("POST", `${BASE}/nightly/resume`, { token: stagingOnly }), 403, "tenant_access_denied"],
      [
        send("GET", "/v1/tenants/staging/triggers", { token: publicOnly }),
        403,
        "tenant_access_denied",
      ],
      [send("GET", `${BASE}/nope`, { token: viewer }), 404, "trigger_not_found"],
      [send("GET", `${BASE}/nope/interface`, { token: viewer }), 404, "trigger_not_found"],
      [
        send("POST", `${BASE}/nope/fire`, { token: operator, body: "{}" }),
        404,
        "trigger_not_found",
      ],
      [send("POST", `${BASE}/nope/pause`, { token: operator }), 404, "trigger_not_found"],
      [send("POST", `${BASE}/nope/resume`, { token: operator }), 404, "trigger_not_found"],
      [send("GET", `${BASE}?limit=0`, { token: viewer }), 400, "invalid_pagination"],
      [send("GET", `${BASE}?limit=5000`, { token: viewer }), 400, "invalid_pagination"],
      [send("GET", `${BASE}?offset=-1`, { token: viewer }), 400, "invalid_pagination"],
      [
        send("POST", `${BASE}/nightly/fire`, { token: operator, body: '{"event": 1, "other": 2}' }),
        400,
        "invalid_input",
      ],
    ];
    for (const [response, status, code] of cases) {
      expect((await expectShape(await response, status, ZCloacinaError)).code).toBe(code);
    }
    broken = true;
    try {
      const failed = await send("POST", `${BASE}/nightly/fire`, { token: operator, body: "{}" });
      expect((await expectShape(failed, 500, ZCloacinaError)).code).toBe("internal_error");
    } finally {
      broken = false;
    }
    // Issue 18: the failed fire is on record with its workflow's outcome all the same.
    const { rows } = await database.pool.query<{ status: string; outcomes: unknown }>(
      `SELECT status, outcomes FROM cyclium_trigger_firings
        WHERE trigger_name = 'nightly' ORDER BY inserted_at DESC LIMIT 1`,
    );
    expect(rows).toEqual([
      {
        status: "failed",
        outcomes: [
          {
            workflow: "review",
            primary: true,
            status: "failed",
            instance_id: null,
            error: "connection reset",
          },
        ],
      },
    ]);
  });

  it("lets a tenant-limited token address its own tenants", async () => {
    const own = await send("GET", "/v1/tenants/staging/triggers", { token: stagingOnly });
    expect(await expectShape(own, 200, ZCloacinaList)).toMatchObject({
      tenant_id: "staging",
      total: 0,
    });
    // `public` and `default` both name the unset env.
    for (const tenant of ["public", "default"]) {
      const list = await send("GET", `/v1/tenants/${tenant}/triggers`, { token: publicOnly });
      expect((await expectShape(list, 200, ZCloacinaList)).total).toBe(3);
    }
    const { rows } = await database.pool.query<{ name: string; tenants: string[] }>(
      "SELECT name, tenants FROM cyclium_api_tokens WHERE name IN ('staging-ci', 'public-dash') ORDER BY name",
    );
    expect(rows).toEqual([
      { name: "public-dash", tenants: ["default"] },
      { name: "staging-ci", tenants: ["staging"] },
    ]);
  });

  it("answers with the caller's x-request-id when it sends one", async () => {
    const response = await send("GET", BASE, { token: viewer, requestId: "cli-7f3a" });
    expect(response.headers.get("x-request-id")).toBe("cli-7f3a");
    const refused = await send("GET", BASE, { requestId: "cli-7f3b" });
    expect(refused.headers.get("x-request-id")).toBe("cli-7f3b");
  });
});
