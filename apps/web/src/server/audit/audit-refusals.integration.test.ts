import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { signIn } from "../auth/sign-in";
import { createSignInThrottle } from "@cyclium/core/console-auth";
import {
  auditRows,
  seedTestUsers,
  TEST_PASSWORD,
  testContext,
  type TTestUsers,
} from "../auth/testing/auth-test-kit";
import { createTriggerEndpoints } from "../rest/trigger-endpoints";
import { createCaller } from "../trpc/root-router";
import { insertAuditEntry } from "./audit-entry";

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

  it("caps the audit rows an anonymous caller can write; signed-in refusals are all kept", async () => {
    const anonymous = createCaller(testContext(database.pool, null, { ip: "198.51.100.77" }));
    for (let i = 0; i < 70; i += 1) await settle(anonymous.triggers.fire({ name: `n${i}` }));
    const anonymousRows = (await auditRows(database.pool, "triggers.fire")).filter(
      (row) => row.principal === "anonymous",
    );
    expect(anonymousRows.length).toBeGreaterThan(0);
    // At most two minutes of the cap (the test may straddle a minute boundary).
    expect(anonymousRows.length).toBeLessThan(70);
    expect(anonymousRows[0]).toMatchObject({ target: "n0", outcome: "refused" });
  });
});
