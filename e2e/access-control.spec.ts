import path from "node:path";
import { expect, submitSignInForm, test } from "./support/fixtures";
import { screenshotsDir } from "./support/paths";
import { auditOutcomes, insertCronTrigger } from "./support/triggers";
import { e2eUserEmail } from "./support/users";

const screenshot = (name: string) => path.join(screenshotsDir, `${name}.png`);

test.describe("anonymous", () => {
  test.use({ role: "anonymous" });

  test("page visits go to the sign-in form and come back after signing in", async ({ page }) => {
    await page.goto("/episodes?status=failed");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fepisodes%3Fstatus%3Dfailed$/);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Console" })).toHaveCount(0);
    await page.screenshot({ path: screenshot("sign-in"), fullPage: true });

    await page.getByLabel("Email").fill(e2eUserEmail("operator"));
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("sign-in-error")).toHaveText("Email or password is incorrect.");
    await expect(page.getByLabel("Email")).toHaveValue(e2eUserEmail("operator"));
    await page.screenshot({ path: screenshot("sign-in-error"), fullPage: true });

    await submitSignInForm(page, "operator");
    await expect(page).toHaveURL(/\/episodes\?status=failed$/);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("tRPC and REST answer 401 without a session", async ({ request }) => {
    const query = await request.get("/api/trpc/overview.stats");
    expect(query.status()).toBe(401);
    expect(await query.text()).toContain("UNAUTHORIZED");
    const rest = await request.get("/api/v1/tenants/default/triggers");
    expect(rest.status()).toBe(401);
    expect(await rest.json()).toMatchObject({ code: "unauthorized" });
    const session = await request.get("/api/trpc/auth.session");
    expect(session.status()).toBe(200);
    // The console may not be framed by another site (clickjacking its buttons).
    const signIn = await request.get("/sign-in");
    expect(signIn.headers()["x-frame-options"]).toBe("DENY");
    expect(signIn.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});

test.describe("anonymous, cross-origin", () => {
  test.use({ role: "anonymous" });

  test("a server action posted from another site answers 403 (never 500) and is audited", async ({
    request,
    db,
  }) => {
    const since = new Date();
    // What a form on another site submitting to the sign-in action sends: Next.js would throw
    // on the origin mismatch (a 500); the console refuses it before that.
    const action = await request.post("/sign-in", {
      headers: {
        origin: "https://evil.example",
        "next-action": "0123456789abcdef0123456789abcdef01234567",
        "content-type": "text/plain;charset=UTF-8",
      },
      data: '["operator@cyclium.local","guess"]',
    });
    expect(action.status()).toBe(403);
    expect(await action.json()).toMatchObject({ code: "cross_origin" });
    expect(await auditOutcomes(db, { action: "server_action", since })).toEqual([
      expect.objectContaining({ outcome: "refused", reason: "cross_origin", target: "/sign-in" }),
    ]);
  });
});

test.describe("viewer", () => {
  test.use({ role: "viewer" });

  test("sees the console without operator or admin controls", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("user-menu")).toContainText("viewer");
    await expect(page.getByTestId("user-menu").getByRole("link", { name: "Admin" })).toHaveCount(0);
    for (const path of ["/triggers", "/actors"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("button", { name: /^(fire|pause|resume)\b/i })).toHaveCount(0);
      await expect(page.getByRole("combobox", { name: /mode/i })).toHaveCount(0);
    }
    await page.goto("/admin");
    await expect(page.getByTestId("admin-refused")).toBeVisible();
  });

  test("is refused by the server when calling operator and admin actions directly", async ({
    request,
    baseURL,
    db,
  }) => {
    const since = new Date();
    const trigger = await insertCronTrigger(db);
    const headers = { origin: baseURL ?? "", "content-type": "application/json" };
    for (const [procedure, input] of [
      ["triggers.pause", { name: trigger }],
      ["triggers.fire", { name: trigger }],
      ["modes.set", { nodeIdentity: "worker-e2e-1", mode: "disabled" }],
      ["admin.tokens.create", { name: "sneaky", role: "admin" }],
    ] as const) {
      const response = await request.post(`/api/trpc/${procedure}`, { headers, data: input });
      expect(response.status(), procedure).toBe(403);
      expect(await response.text()).toContain("FORBIDDEN");
    }
    for (const action of ["fire", "pause", "resume"]) {
      const response = await request.post(`/api/v1/tenants/default/triggers/${trigger}/${action}`, {
        headers,
      });
      expect(response.status(), action).toBe(403);
      expect(await response.json()).toMatchObject({ code: "forbidden" });
    }
    const refusals = await auditOutcomes(db, { action: "triggers.pause", since });
    expect(refusals).toEqual([
      expect.objectContaining({ principal: `user:${e2eUserEmail("viewer")}`, reason: "role" }),
      expect.objectContaining({ principal: `user:${e2eUserEmail("viewer")}`, reason: "role" }),
    ]);
    const paused = await db.query<{ paused: boolean }>(
      "SELECT paused FROM cyclium_triggers WHERE name = $1",
      [trigger],
    );
    expect(paused.rows[0]?.paused).toBe(false);
  });
});

test.describe("operator", () => {
  test("a cross-origin POST is refused and audited; the same call from the console works", async ({
    request,
    baseURL,
    db,
  }) => {
    const since = new Date();
    const trigger = await insertCronTrigger(db);
    const evil = { origin: "https://evil.example", "content-type": "application/json" };
    const trpc = await request.post("/api/trpc/triggers.pause", {
      headers: evil,
      data: { name: trigger },
    });
    expect(trpc.status()).toBe(403);
    const rest = await request.post(`/api/v1/tenants/default/triggers/${trigger}/pause`, {
      headers: evil,
    });
    expect(rest.status()).toBe(403);
    expect(await rest.json()).toMatchObject({ code: "cross_origin" });
    // No Origin at all (not a browser) with a cookie is refused too: a cookie is not proof.
    const bare = await request.post(`/api/v1/tenants/default/triggers/${trigger}/pause`);
    expect(bare.status()).toBe(403);
    expect(await auditOutcomes(db, { action: "triggers.pause", since })).toEqual([
      expect.objectContaining({ outcome: "refused", reason: "cross_origin" }),
      expect.objectContaining({ outcome: "refused", reason: "cross_origin" }),
      expect.objectContaining({ outcome: "refused", reason: "cross_origin" }),
    ]);

    const allowed = await request.post(`/api/v1/tenants/default/triggers/${trigger}/pause`, {
      headers: { origin: baseURL ?? "" },
    });
    expect(allowed.status()).toBe(200);
    expect(await allowed.json()).toMatchObject({
      tenant_id: "default",
      name: trigger,
      paused: true,
    });
  });

  test("a mutation cannot be run by GET", async ({ request, db }) => {
    const input = encodeURIComponent(JSON.stringify({ name: "via-get", role: "admin" }));
    const response = await request.get(`/api/trpc/admin.tokens.create?input=${input}`);
    expect(response.status()).toBe(405);
    const { rowCount } = await db.query("SELECT 1 FROM cyclium_api_tokens WHERE name = 'via-get'");
    expect(rowCount).toBe(0);
  });
});
