import {
  defineTrigger,
  CycliumError,
  defineWorkflow,
  TriggerRegistry,
  TriggerScheduler,
  type WorkflowStarter,
  WorkflowRegistry,
  createApiToken,
  createSignInThrottle,
} from "@cyclium/core/console";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { signIn } from "../auth/sign-in";
import { auditRows, seedTestUsers, TEST_PASSWORD } from "../auth/testing/auth-test-kit";
import { createTriggerEndpoints } from "./trigger-endpoints";
import type { TTriggerServices } from "./trigger-services";

let database: TestDatabase;
let operatorToken: string;
let viewerToken: string;
let operatorSession: string;
let endpoints: ReturnType<typeof createTriggerEndpoints>;

const workflows = new WorkflowRegistry().register(
  defineWorkflow({
    name: "review",
    steps: [{ name: "check", actor: "resource_monitor", expectation: "check_resource_limits" }],
  }),
);
const triggers = new TriggerRegistry().register(
  defineTrigger({ name: "nightly", on: "review", cron: "0 2 * * *", timezone: "UTC" }),
);
/** What each start was asked (the REST fire's timing reaches the workflow start). */
const starts: Parameters<WorkflowStarter>[0][] = [];
const startWorkflow: WorkflowStarter = (options) => {
  starts.push(options);
  return Promise.resolve({ instanceId: crypto.randomUUID() });
};
const services: TTriggerServices = { startWorkflow, triggers, workflows };

beforeAll(async () => {
  database = await createTestDatabase();
  const users = await seedTestUsers(database.pool);
  const db = database.pool;
  await new TriggerScheduler({
    db,
    env: null,
    node: "n",
    triggers,
    workflows,
    startWorkflow,
  }).register();
  operatorToken = (
    await createApiToken({ db, name: "ci", role: "operator", createdBy: users.admin.id })
  ).token;
  viewerToken = (await createApiToken({ db, name: "dash", role: "viewer", createdBy: null })).token;
  const session = await signIn({
    db,
    input: { email: "operator@test.local", password: TEST_PASSWORD },
    ip: null,
    userAgent: null,
    throttle: createSignInThrottle(db),
  });
  if (session.kind !== "signed_in") throw new Error("sign-in failed");
  operatorSession = session.token;
  endpoints = createTriggerEndpoints({ getDb: () => db, getTriggerServices: () => services });
});

afterAll(async () => {
  await database.drop();
});

const BASE = "http://console.test/api/v1/tenants";

function call(
  handler: (
    request: Request,
    context: { params: Promise<Record<string, string>> },
  ) => Promise<Response>,
  path: string,
  params: Record<string, string>,
  init: RequestInit & { token?: string } = {},
) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  return handler(new Request(`${BASE}${path}`, { ...init, headers }), {
    params: Promise.resolve(params),
  });
}

async function json(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

const nightly = { t: "default", name: "nightly" };

describe("REST v1 triggers", () => {
  it("lists and inspects with a viewer token, in the SPEC's shapes", async () => {
    const list = await call(
      endpoints.list,
      "/default/triggers?limit=10",
      { t: "default" },
      { token: viewerToken },
    );
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    expect(await json(list)).toMatchObject({
      tenant_id: "default",
      total: 1,
      items: [{ name: "nightly", kind: "cron", paused: false, subscribers: ["review"] }],
    });
    const inspect = await call(endpoints.inspect, "/default/triggers/nightly", nightly, {
      token: viewerToken,
    });
    expect(await json(inspect)).toMatchObject({
      tenant_id: "default",
      trigger: { name: "nightly" },
      recent_firings: [],
    });
  });

  it("fires with an operator token and audits it", async () => {
    const response = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ context: { reason: "backfill" } }),
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ tenant_id: "default", trigger: "nightly", fired: 1 });
    expect(body.executions).toEqual([
      {
        workflow_name: "review",
        execution_id: expect.any(String) as unknown,
        workflow: "review",
        instance_id: expect.any(String) as unknown,
        primary: true,
      },
    ]);
    expect(await auditRows(database.pool, "triggers.fire")).toContainEqual(
      expect.objectContaining({ principal: "token:ci", outcome: "ok", target: "nightly" }),
    );
  });

  it("records the firing and its failed primary when the workflow cannot start (409, audited as error)", async () => {
    const unregistered: TTriggerServices = {
      ...services,
      startWorkflow: ({ workflow }) =>
        Promise.reject(new CycliumError("not_found", `Workflow "${workflow}" is not registered.`)),
    };
    const failing = createTriggerEndpoints({
      getDb: () => database.pool,
      getTriggerServices: () => unregistered,
    });
    const response = await call(failing.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ context: { reason: "unregistered" } }),
    });
    expect(response.status).toBe(409);
    expect(JSON.stringify(await json(response))).toContain("recorded as failed");
    const { rows } = await database.pool.query<{
      status: string;
      source: string;
      outcomes: { workflow: string; status: string; primary: boolean }[];
    }>(
      `SELECT status, source, outcomes FROM cyclium_trigger_firings
        WHERE trigger_name = 'nightly' AND context->>'reason' = 'unregistered'`,
    );
    expect(rows).toEqual([
      {
        status: "failed",
        source: "manual",
        outcomes: [
          expect.objectContaining({ workflow: "review", primary: true, status: "failed" }),
        ],
      },
    ]);
    expect(await auditRows(database.pool, "triggers.fire")).toContainEqual(
      expect.objectContaining({ principal: "token:ci", outcome: "error", target: "nightly" }),
    );
  });

  it("fires for later at a priority, and refuses a bad time naming the field", async () => {
    const runAt = "2030-01-01T09:00:00Z";
    const response = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ context: {}, runAt, delayMs: 60_000, priority: 4 }),
    });
    expect(response.status).toBe(200);
    expect(starts.at(-1)?.timing).toEqual({
      runAt: new Date(runAt),
      delayMs: 60_000,
      priority: 4,
    });
    const bad = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ priority: 11 }),
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await json(bad))).toContain("priority");
  });

  it("refuses a viewer token to fire (403) and audits the refusal", async () => {
    const response = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: viewerToken,
    });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({
      code: "forbidden",
      error: expect.stringContaining("operator") as unknown,
    });
    expect(await auditRows(database.pool, "triggers.fire")).toContainEqual(
      expect.objectContaining({ principal: "token:dash", outcome: "refused" }),
    );
  });

  it("answers 401 without credentials and with a bad token", async () => {
    const anonymous = await call(endpoints.list, "/default/triggers", { t: "default" });
    expect(anonymous.status).toBe(401);
    expect(await json(anonymous)).toMatchObject({ code: "unauthorized" });
    const bad = await call(
      endpoints.list,
      "/default/triggers",
      { t: "default" },
      { token: "cyc_not-a-token-0123456789" },
    );
    expect(bad.status).toBe(401);
  });

  it("answers 404 for an unknown trigger, 400 for malformed input", async () => {
    const unknown = await call(
      endpoints.pause,
      "/default/triggers/nope/pause",
      { t: "default", name: "nope" },
      {
        method: "POST",
        token: operatorToken,
      },
    );
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({
      code: "trigger_not_found",
      error: 'No trigger "nope" in tenant "default".',
    });

    const notJson = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
      body: "{context:",
    });
    expect(notJson.status).toBe(400);
    expect(await json(notJson)).toEqual({
      code: "invalid_input",
      error: "Request body is not valid JSON.",
    });

    const wrongShape = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
      body: JSON.stringify({ context: "now", extra: 1 }),
    });
    expect(wrongShape.status).toBe(400);
    expect(String((await json(wrongShape)).error)).toMatch(/context/);

    const badLimit = await call(
      endpoints.list,
      "/default/triggers?limit=5000",
      { t: "default" },
      { token: viewerToken },
    );
    expect(badLimit.status).toBe(400);
    expect(await json(badLimit)).toMatchObject({ code: "invalid_pagination" });
  });

  it("pauses (an operator's fire still fires) and resumes", async () => {
    const pause = await call(endpoints.pause, "/default/triggers/nightly/pause", nightly, {
      method: "POST",
      token: operatorToken,
    });
    const paused = await json(pause);
    expect(paused).toEqual({
      tenant_id: "default",
      id: expect.any(String) as unknown,
      name: "nightly",
      status: "paused",
      paused: true,
    });
    const fire = await call(endpoints.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
    });
    expect(fire.status).toBe(200);
    expect(await json(fire)).toMatchObject({ trigger: "nightly", fired: 1 });
    const resume = await call(endpoints.resume, "/default/triggers/nightly/resume", nightly, {
      method: "POST",
      token: operatorToken,
    });
    expect(await json(resume)).toEqual({
      tenant_id: "default",
      id: paused.id,
      name: "nightly",
      status: "resumed",
      paused: false,
    });
    const pauses = await auditRows(database.pool, "triggers.pause");
    expect(pauses.filter((row) => row.target === "nightly")).toEqual([
      expect.objectContaining({
        principal: "token:ci",
        outcome: "ok",
        detail: { tokenId: expect.any(String) as unknown, via: "rest", tenant: "default" },
      }),
    ]);
  });

  it("accepts a session cookie only from the console's own origin", async () => {
    const cookie = `${SESSION_COOKIE}=${operatorSession}`;
    const crossSite = await call(endpoints.pause, "/default/triggers/nightly/pause", nightly, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example", host: "console.test" },
    });
    expect(crossSite.status).toBe(403);
    expect(await json(crossSite)).toMatchObject({ code: "cross_origin" });
    const noOrigin = await call(endpoints.pause, "/default/triggers/nightly/pause", nightly, {
      method: "POST",
      headers: { cookie },
    });
    expect(noOrigin.status).toBe(403);
    const sameSite = await call(endpoints.resume, "/default/triggers/nightly/resume", nightly, {
      method: "POST",
      headers: { cookie, origin: "http://console.test", host: "console.test" },
    });
    expect(sameSite.status).toBe(200);
    const read = await call(
      endpoints.list,
      "/default/triggers",
      { t: "default" },
      { headers: { cookie } },
    );
    expect(read.status).toBe(200);
  });

  it("answers 503 to a fire while the runtime is not up, without leaking anything", async () => {
    const idle = createTriggerEndpoints({
      getDb: () => database.pool,
      getTriggerServices: () => null,
    });
    const response = await call(idle.fire, "/default/triggers/nightly/fire", nightly, {
      method: "POST",
      token: operatorToken,
    });
    expect(response.status).toBe(503);
    expect(await json(response)).toMatchObject({ code: "shutdown" });
  });
});
