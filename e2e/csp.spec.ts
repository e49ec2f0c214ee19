// The strict CSP (apps/web/src/proxy.ts) must not break any page: each page is visited and every
// `securitypolicyviolation` event the browser raises is collected (issue 13).
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

const PAGES = [
  "/",
  "/episodes",
  "/claims",
  "/trigger-requests",
  "/actors",
  "/triggers",
  "/workflows",
  "/findings",
  "/telemetry",
  "/audit",
  "/recovery",
  "/admin",
];

// Runs in the page before its own scripts (as text: this package has no DOM types).
const COLLECT_VIOLATIONS = `
  window.cspViolations = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    window.cspViolations.push(event.violatedDirective + " " + event.blockedURI + " " + event.sourceFile);
  });
`;

async function collectViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript({ content: COLLECT_VIOLATIONS });
  return () => page.evaluate<string[]>("window.cspViolations");
}

test.describe("with the strict CSP", () => {
  test.use({ role: "admin" });

  test("every console page runs without a CSP violation", async ({ page }) => {
    const violations = await collectViolations(page);
    for (const path of PAGES) {
      const response = await page.goto(path);
      const csp = response?.headers()["content-security-policy"] ?? "";
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
      // Hydrated: the live indicator is rendered by client components.
      await expect(page.getByTestId("user-menu")).toBeVisible();
      expect(await violations(), path).toEqual([]);
    }
  });

  test("the nonce changes on every response; API answers are nosniff", async ({ request }) => {
    const nonceOf = async () =>
      /'nonce-([^']+)'/.exec(
        (await request.get("/")).headers()["content-security-policy"] ?? "",
      )?.[1];
    const [first, second] = [await nonceOf(), await nonceOf()];
    expect(first).toBeTruthy();
    expect(first).not.toBe(second);
    const api = await request.get("/api/trpc/auth.session");
    expect(api.headers()["x-content-type-options"]).toBe("nosniff");
    expect(api.headers()["cache-control"]).toBe("no-store");
    const rest = await request.get("/api/v1/tenants/default/triggers");
    expect(rest.headers()["x-content-type-options"]).toBe("nosniff");
  });
});

test.describe("signed out", () => {
  test.use({ role: "anonymous" });

  test("the sign-in page runs without a CSP violation and signs in", async ({ page }) => {
    const violations = await collectViolations(page);
    await page.goto("/sign-in?next=%2F%09%2Fevil.example");
    await page.getByLabel("Email").fill("nobody@e2e.local");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("sign-in-error")).toBeVisible();
    expect(await violations()).toEqual([]);
  });
});
