import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { proxy as TProxy } from "./proxy";
import { auditRows } from "./server/auth/testing/auth-test-kit";

// The proxy's module graph reaches the database pool, marked server-only.
vi.mock("server-only", () => ({}));

let database: TestDatabase;
let proxy: typeof TProxy;

beforeAll(async () => {
  database = await createTestDatabase();
  // The proxy writes its refusals through the console's own pool, read from DATABASE_URL on
  // first use: point it at this test's database before the module is loaded.
  vi.stubEnv("DATABASE_URL", database.url);
  ({ proxy } = await import("./proxy"));
});

afterAll(async () => {
  const { getPool } = await import("./server/db");
  await getPool().end();
  vi.unstubAllEnvs();
  await database.drop();
});

describe("cross-origin posts to pages (issue 29)", () => {
  it("refuses a plain HTML form posted from another site with 403 and an audit row", async () => {
    // What a form on another site sends: no `next-action` header, the action id in the fields.
    // Next.js still treats it as a server action and threw on the origin (a 500).
    const form = new FormData();
    form.set("$ACTION_ID_0123456789abcdef0123456789abcdef01234567", "");
    form.set("email", "operator@cyclium.local");
    const response = await proxy(
      new NextRequest("http://console.test/sign-in", {
        method: "POST",
        headers: { origin: "https://evil.example", "x-forwarded-for": "203.0.113.9" },
        body: form,
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "cross_origin" });
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await auditRows(database.pool, "server_action")).toEqual([
      expect.objectContaining({
        principal: "anonymous",
        outcome: "refused",
        target: "/sign-in",
        detail: expect.objectContaining({ reason: "cross_origin" }) as unknown,
      }),
    ]);
  });

  it("lets a same-origin form post and a cross-origin REST call through to their handlers", async () => {
    const sameOrigin = await proxy(
      new NextRequest("http://console.test/sign-in", {
        method: "POST",
        headers: { origin: "http://console.test", host: "console.test" },
        body: new FormData(),
      }),
    );
    expect(sameOrigin.status).toBe(200);
    // REST decides for itself (a Bearer token is never sent by a browser on its own).
    const rest = await proxy(
      new NextRequest("http://console.test/api/v1/tenants/public/triggers/x/fire", {
        method: "POST",
        headers: { origin: "https://evil.example", authorization: "Bearer cyc_x" },
      }),
    );
    expect(rest.status).toBe(200);
  });
});
