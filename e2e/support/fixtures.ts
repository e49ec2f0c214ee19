import path from "node:path";
import { expect, test as base, type Page } from "@playwright/test";
import pg from "pg";
import { e2eBaseUrl, e2eDatabaseUrl } from "./env";
import { authDir } from "./paths";
import { E2E_PASSWORD, E2E_ROLES, e2eUserEmail, type TE2eRole } from "./users";
import { collectBrowserErrors } from "./browser-errors";

/** Who the test's browser is: a signed-in role, or nobody. */
export type TE2eIdentity = TE2eRole | "anonymous";

/** Signs in through the form, as a person would, and waits for the console to open. */
export async function signInThroughUi(page: Page, role: TE2eRole) {
  await page.goto("/sign-in");
  await submitSignInForm(page, role);
}

/** Fills and submits the sign-in form the page shows (keeping its `next`). */
export async function submitSignInForm(page: Page, role: TE2eRole, password = E2E_PASSWORD) {
  await page.getByLabel("Email").fill(e2eUserEmail(role));
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-menu")).toContainText(e2eUserEmail(role));
}

export const test = base.extend<
  { role: TE2eIdentity },
  { db: pg.Pool; authStates: Record<TE2eRole, string> }
>({
  /** `test.use({ role: "viewer" })` per file or describe block; operators by default. */
  role: ["operator", { option: true }],

  /** The browser context starts with the session of `role` (or no cookies at all). */
  storageState: async ({ role, authStates }, use) => {
    await use(role === "anonymous" ? { cookies: [], origins: [] } : authStates[role]);
  },

  /** API calls of the test carry the same session as its browser (Playwright's default has none). */
  request: async ({ playwright, storageState, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL, storageState });
    await use(request);
    await request.dispose();
  },

  /**
   * Each role signs in through the UI once per worker process; tests reuse the saved cookies
   * (Playwright's storageState), so the sign-in form is exercised without paying for it per test.
   */
  authStates: [
    async ({ browser }, use, workerInfo) => {
      const states = {} as Record<TE2eRole, string>;
      for (const role of E2E_ROLES) {
        const context = await browser.newContext({ baseURL: e2eBaseUrl() });
        const page = await context.newPage();
        await signInThroughUi(page, role);
        const file = path.join(authDir, `${role}-${workerInfo.workerIndex}.json`);
        await context.storageState({ path: file });
        await context.close();
        states[role] = file;
      }
      await use(states);
    },
    // Three argon2 sign-ins with a cold console: one took 18 s on this 2-core machine at load 20,
    // which the default 30 s (the test timeout) did not cover for three.
    { scope: "worker", timeout: 120_000 },
  ],

  /**
   * Every test fails on an uncaught exception or console error in the browser: hydration
   * mismatches and failed client fetches only show up there.
   */
  page: async ({ page }, use) => {
    const errors: string[] = [];
    collectBrowserErrors(page, errors);
    await use(page);
    expect(errors, "errors in the browser").toEqual([]);
  },

  /** A pool on the run's database, shared by the tests of one worker. */
  db: [
    async ({ browserName: _browserName }, use) => {
      const pool = new pg.Pool({ connectionString: e2eDatabaseUrl(), max: 2 });
      await use(pool);
      await pool.end();
    },
    { scope: "worker" },
  ],
});

export { expect };
