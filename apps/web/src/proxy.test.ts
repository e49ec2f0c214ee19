import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { contentSecurityPolicy, proxy } from "./proxy";

// The proxy's module graph reaches the database pool, marked server-only; nothing here queries it.
vi.mock("server-only", () => ({}));

describe("proxy headers", () => {
  it("gives the sign-in page a nonce CSP, nosniff, and a fresh nonce each time", async () => {
    const first = await proxy(new NextRequest("http://console.test/sign-in"));
    const second = await proxy(new NextRequest("http://console.test/sign-in"));
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("adds HSTS only over https", async () => {
    const response = await proxy(
      new NextRequest("http://console.test/sign-in", { headers: { "x-forwarded-proto": "https" } }),
    );
    expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it.each([
    "/api/trpc/auth.session",
    "/api/v1/tenants/default/triggers",
    "/metrics",
    "/_next/static/x.js",
  ])("marks %s nosniff without a page CSP", async (path) => {
    const response = await proxy(new NextRequest(`http://console.test${path}`));
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBeNull();
  });

  it("sends a signed-out visit to sign-in, keeping where it was going", async () => {
    const response = await proxy(new NextRequest("http://console.test/episodes?status=failed"));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe(
      "http://console.test/sign-in?next=%2Fepisodes%3Fstatus%3Dfailed",
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it.each([
    ["/v1/tenants/public/triggers?limit=5", "/api/v1/tenants/public/triggers?limit=5"],
    ["/v1/tenants/public/triggers/nightly/fire", "/api/v1/tenants/public/triggers/nightly/fire"],
    ["/v1", "/api/v1"],
  ])(
    "serves Cloacina's path %s as %s, signed out, never the sign-in page",
    async (path, target) => {
      const response = await proxy(
        new NextRequest(`http://console.test${path}`, {
          method: path.endsWith("/fire") ? "POST" : "GET",
          headers: { authorization: "Bearer cyc_x" },
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("x-middleware-rewrite")).toBe(`http://console.test${target}`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    },
  );

  it("leaves other paths that start like /v1 to the pages", async () => {
    const response = await proxy(new NextRequest("http://console.test/v1beta"));
    expect(response.status).toBe(307);
  });

  it("allows eval only in development", () => {
    expect(contentSecurityPolicy("n", true)).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy("n", false)).not.toContain("'unsafe-eval'");
  });

  it("answers 400 to a path that is not UTF-8", async () => {
    for (const path of ["/%FF", "/episodes/%ED%A0%80", "/api/trpc/%C0"]) {
      const response = await proxy(new NextRequest(`http://console.test${path}`));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: "invalid_input" });
    }
  });
});
