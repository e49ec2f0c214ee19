import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { signIn } from "../auth/sign-in";
import { createApiToken, createSignInThrottle } from "@cyclium/core/console";
import {
  auditRows,
  seedTestUsers,
  TEST_PASSWORD,
  testContext,
  type TTestUsers,
} from "../auth/testing/auth-test-kit";
import { createTriggerEndpoints } from "../rest/trigger-endpoints";
import { handleTrpcHttpRequest, MAX_BATCH_SIZE } from "../trpc/http-handler";
import { createCaller } from "../trpc/root-router";
import { insertAuditEntry } from "./audit-entry";
import { writeCappedRefusalSummaries } from "./audited";

let database: TestDatabase;
let users: TTestUsers;

beforeAll(async () => {
  database = await createTestDatabase();
  users = await seedTestUsers(database.pool);
});

afterAll(async () => {
  await database.drop();
});

const settle = (call: Promise<unknown>) =>
  call.then(
    () => "answered",
    (error: unknown) => error,
  );

describe("audit of refusals (issue 13)", () => {
  it("names the target of a tRPC refusal: role too low and cross-origin", async () => {
    const viewer = createCaller(testContext(database.pool, users.viewer));
    await settle(viewer.triggers.pause({ name: "nightly-report" }));
    const crossSite = createCaller(testContext(database.pool, users.operator, { origin: "cross" }));
    await settle(crossSite.triggers.resume({ name: "weekly-report" }));
    expect(await auditRows(database.pool, "triggers.pause")).toEqual([
      expect.objectContaining({
        principal: `user:${users.viewer.name}`,
        outcome: "refused",
        target: "nightly-report",
      }),
    ]);
    expect(await auditRows(database.pool, "triggers.resume")).toEqual([
      expect.objectContaining({
        principal: `user:${users.operator.name}`,
        outcome: "refused",
        target: "weekly-report",
      }),
    ]);
  });

  it("records a mutation whose input holds a NUL byte, sanitized", async () => {
    const admin = createCaller(testContext(database.pool, users.admin));
    const outcome = await settle(
      admin.admin.tokens.create({ name: "probe\u0000'; --", role: "viewer" }),
    );
    expect(outcome).toMatchObject({ code: "BAD_REQUEST" });
    const rows = await auditRows(database.pool, "admin.tokens.create");
    expect(rows).toEqual([
      expect.objectContaining({
        principal: `user:${users.admin.name}`,
        outcome: "refused",
        target: "probe\ufffd'; --",
        detail: expect.objectContaining({ reason: "invalid_input" }) as unknown,
      }),
    ]);
  });

  it("stores NUL and lone surrogates anywhere in an entry instead of failing the insert", async () => {
    await insertAuditEntry(database.pool, {
      principal: { kind: "user", id: users.admin.id, name: "a\u0000dmin", role: "admin" },
      action: "test.\u0000sanitize",
      target: "t\u0000\ud800",
      outcome: "ok",
      ip: "1.2.3.4\u0000",
      detail: { "k\u0000": ["v\u0000", { deep: "\udc00" }] },
    });
    const rows = await auditRows(database.pool, "test.\ufffdsanitize");
    expect(rows).toEqual([
      expect.objectContaining({
        principal: "user:a\ufffddmin",
        target: "t\ufffd\ufffd",
        detail: { "k\ufffd": ["v\ufffd", { deep: "\ufffd" }] },
      }),
    ]);
  });

  it("names the real principal of a cross-origin REST refusal with a valid cookie", async () => {
    const session = await signIn({
      db: database.pool,
      input: { email: "operator@test.local", password: TEST_PASSWORD },
      ip: null,
      userAgent: null,
      throttle: createSignInThrottle(database.pool),
    });
    if (session.kind !== "signed_in") throw new Error("sign-in failed");
    const endpoints = createTriggerEndpoints({
      getDb: () => database.pool,
      getTriggerServices: () => null,
    });
    const response = await endpoints.pause(
      new Request("http://console.test/api/v1/tenants/default/triggers/nightly/pause", {
        method: "POST",
        headers: {
          cookie: `${SESSION_COOKIE}=${session.token}`,
          origin: "https://evil.example",
          "sec-fetch-site": "cross-site",
        },
      }),
      { params: Promise.resolve({ t: "default", name: "nightly" }) },
    );
    expect(response.status).toBe(403);
    const rows = (await auditRows(database.pool, "triggers.pause")).filter(
      (row) => row.target === "nightly",
    );
    expect(rows).toEqual([
      expect.objectContaining({ principal: `user:${users.operator.name}`, outcome: "refused" }),
    ]);
  });

  it("caps the audit rows an anonymous caller can write, and counts the rest in a summary", async () => {
    const anonymous = createCaller(testContext(database.pool, null, { ip: "198.51.100.77" }));
    for (let i = 0; i < 70; i += 1) await settle(anonymous.triggers.fire({ name: `n${i}` }));
    const anonymousRows = (await auditRows(database.pool, "triggers.fire")).filter(
      (row) => row.principal === "anonymous",
    );
    expect(anonymousRows.length).toBeGreaterThan(0);
    // At most two minutes of the cap (the test may straddle a minute boundary).
    expect(anonymousRows.length).toBeLessThan(70);
    expect(anonymousRows[0]).toMatchObject({ target: "n0", outcome: "refused" });
    // None is lost: what was not written is counted in one row per address and minute.
    await writeCappedRefusalSummaries({ all: true });
    const summaries = await auditRows(database.pool, "refusals.capped");
    const summarised = summaries.reduce((sum, row) => sum + Number(row.detail.refusals), 0);
    expect(anonymousRows.length + summarised).toBe(70);
    expect(summaries[0]).toMatchObject({
      principal: "anonymous",
      outcome: "refused",
      detail: expect.objectContaining({
        reasons: { unauthenticated: summarised },
      }) as unknown,
    });
  });
});

describe("audit of refused reads and rejected REST input (issue 29)", () => {
  const triggerEndpoints = () =>
    createTriggerEndpoints({ getDb: () => database.pool, getTriggerServices: () => null });

  it("records an anonymous tRPC read", async () => {
    const anonymous = createCaller(testContext(database.pool, null, { ip: "198.51.100.10" }));
    expect(await settle(anonymous.overview.stats())).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await auditRows(database.pool, "overview.stats")).toEqual([
      expect.objectContaining({
        principal: "anonymous",
        outcome: "refused",
        detail: expect.objectContaining({ reason: "unauthenticated", type: "query" }) as unknown,
      }),
    ]);
  });

  it("records a tRPC call whose body is not JSON", async () => {
    const response = await handleTrpcHttpRequest(
      new Request("http://console.test/api/trpc/triggers.resume", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      }),
      () => Promise.resolve(testContext(database.pool, users.operator)),
      () => database.pool,
    );
    expect(response.status).toBe(400);
    const rows = (await auditRows(database.pool, "triggers.resume")).filter(
      (row) => row.detail.field === "(input)",
    );
    expect(rows).toEqual([
      expect.objectContaining({
        principal: `user:${users.operator.name}`,
        outcome: "refused",
        detail: expect.objectContaining({ reason: "invalid_input", type: "mutation" }) as unknown,
      }),
    ]);
  });

  it("records a tRPC batch refused as a whole", async () => {
    const paths = Array.from({ length: MAX_BATCH_SIZE + 1 }, () => "overview.stats").join(",");
    const response = await handleTrpcHttpRequest(
      new Request(`http://console.test/api/trpc/${paths}?batch=1`),
      () => Promise.resolve(testContext(database.pool, users.viewer)),
      () => database.pool,
    );
    expect(response.status).toBe(400);
    expect(await auditRows(database.pool, "trpc.request")).toEqual([
      expect.objectContaining({
        principal: `user:${users.viewer.name}`,
        outcome: "refused",
        detail: expect.objectContaining({
          reason: "invalid_input",
          field: "(request)",
          message: "Batch call exceeds maximum size",
        }) as unknown,
      }),
    ]);
  });

  it("records a REST read with a bad token", async () => {
    const response = await triggerEndpoints().list(
      new Request("http://console.test/api/v1/tenants/default/triggers", {
        headers: { authorization: "Bearer cyc_not_a_token" },
      }),
      { params: Promise.resolve({ t: "default" }) },
    );
    expect(response.status).toBe(401);
    expect(await auditRows(database.pool, "triggers.list")).toEqual([
      expect.objectContaining({
        principal: "anonymous",
        outcome: "refused",
        detail: expect.objectContaining({
          reason: "unauthenticated",
          method: "GET",
          tenant: "default",
        }) as unknown,
      }),
    ]);
  });

  it("records a REST read refused for its query, with the field", async () => {
    const { token } = await createApiToken({
      db: database.pool,
      name: "reader",
      role: "viewer",
      createdBy: users.admin.id,
    });
    const list = await triggerEndpoints().list(
      new Request("http://console.test/api/v1/tenants/default/triggers?limit=0", {
        headers: { authorization: `Bearer ${token}` },
      }),
      { params: Promise.resolve({ t: "default" }) },
    );
    expect(list.status).toBe(400);
    expect(await list.json()).toMatchObject({ code: "invalid_pagination" });
    expect(await auditRows(database.pool, "triggers.list")).toContainEqual(
      expect.objectContaining({
        principal: "token:reader",
        outcome: "refused",
        detail: expect.objectContaining({ reason: "invalid_input", field: "limit" }) as unknown,
      }),
    );
  });

  it("records rejected REST input with the field it names", async () => {
    const session = await signIn({
      db: database.pool,
      input: { email: "operator@test.local", password: TEST_PASSWORD },
      ip: null,
      userAgent: null,
      throttle: createSignInThrottle(database.pool),
    });
    if (session.kind !== "signed_in") throw new Error("sign-in failed");
    const fire = (name: string, body: string) =>
      triggerEndpoints().fire(
        new Request(`http://console.test/api/v1/tenants/default/triggers/${name}/fire`, {
          method: "POST",
          headers: {
            cookie: `${SESSION_COOKIE}=${session.token}`,
            "sec-fetch-site": "same-origin",
            "content-type": "application/json",
          },
          body,
        }),
        { params: Promise.resolve({ t: "default", name }) },
      );
    expect((await fire("malformed", "{not json")).status).toBe(400);
    expect((await fire("mistyped", JSON.stringify({ context: "x" }))).status).toBe(400);
    expect((await fire("oversized", "x".repeat(5 * 1024 * 1024))).status).toBe(400);
    const rows = await auditRows(database.pool, "triggers.fire");
    const refusal = (target: string) => rows.filter((row) => row.target === target);
    expect(refusal("malformed")).toEqual([
      expect.objectContaining({
        principal: `user:${users.operator.name}`,
        outcome: "refused",
        detail: expect.objectContaining({
          reason: "invalid_input",
          field: "(body)",
          message: "Request body is not valid JSON.",
        }) as unknown,
      }),
    ]);
    expect(refusal("mistyped")).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ reason: "invalid_input", field: "context" }) as unknown,
      }),
    ]);
    expect(refusal("oversized")).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ reason: "invalid_input", field: "(body)" }) as unknown,
      }),
    ]);
  });
});
