import path from "node:path";
import { expect, test } from "./support/fixtures";
import { seedLivedInConsole } from "./support/console-seed";
import {
  consoleRoutes,
  expectNoSeriousAxeViolations,
  expectNoSideScroll,
  expectOnScreen,
  expectTablesFit,
  measureTables,
  showTheme,
  waitForPage,
  walkInTabs,
  type TTheme,
  type TWalkedPage,
} from "./support/layout-walk";
import { screenshotsDir } from "./support/paths";
import { insertCronTrigger } from "./support/triggers";

// Issue 14's layout and accessibility acceptance: one signed-in context per viewport walks every
// page of the console in two tabs. Screenshots of every page in light and dark go to
// e2e/screenshots/layout-{phone,desktop}-{light,dark}-<page>.png (gitignored) for people to look at.
const shot = (name: string) => path.join(screenshotsDir, `layout-${name}.png`);

let routes: TWalkedPage[];

test.describe.configure({ timeout: 120_000 });
// Admin: the only role that sees every page, /admin included.
test.use({ role: "admin" });

test.beforeAll(async ({ db }) => {
  const seeded = await seedLivedInConsole(db);
  routes = consoleRoutes({ ...seeded, triggerName: await insertCronTrigger(db) });
});

// axe runs once per page and size, in light on a phone and in dark on a desktop: every page is
// checked in both themes and at both sizes without running axe four times (one run took 1-10 s
// per page on this 2-core machine).
for (const viewport of [
  { name: "phone", width: 390, height: 844, axeIn: "light" },
  { name: "desktop", width: 1440, height: 900, axeIn: "dark" },
] as const) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("every page fits the screen, keeps its primary actions visible and passes axe", async ({
      context,
    }) => {
      await walkInTabs(context, routes, 2, async (page, route) => {
        const what = `${route.path} at ${viewport.name}`;
        await page.emulateMedia({ colorScheme: "light" });
        await page.goto(route.path);
        await waitForPage(page);
        await expectNoSideScroll(page, what);
        if (viewport.name === "desktop") await expectTablesFit(page, what);
        for (const action of route.actions(page)) await expectOnScreen(page, action, what);
        for (const theme of ["light", "dark"] satisfies TTheme[]) {
          if (theme !== "light") await showTheme(page, theme);
          if (viewport.axeIn === theme) {
            await expectNoSeriousAxeViolations(page, `${what} in ${theme}`);
          }
          await page.screenshot({
            path: shot(`${viewport.name}-${theme}-${route.slug}`),
            fullPage: true,
          });
        }
      });
    });
  });
}

// A smaller desktop (980 px of table at 1,280): the page never scrolls sideways, and what each
// live list's table hides behind its own sideways scroll is reported (the run's annotations), not
// asserted: whether the widest rows fit there depends on what the other specs wrote before this
// one (a CI run found the episodes table 3 px short), and a gate must not depend on that. At
// 1,440 px (above) every table must fit.
test.describe("at 1280x800, the live lists", () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  const lists = ["episodes", "claims", "trigger-requests", "workflows", "findings", "audit"];

  test("do not scroll the page sideways; what their tables hide is reported", async ({
    context,
  }) => {
    const listRoutes = routes.filter((route) => lists.includes(route.slug));
    expect(listRoutes).toHaveLength(lists.length);
    await walkInTabs(context, listRoutes, 2, async (page, route) => {
      const what = `${route.path} at 1280`;
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto(route.path);
      await waitForPage(page);
      await expectNoSideScroll(page, what);
      for (const { table, hidden } of await measureTables(page)) {
        test.info().annotations.push({
          type: "table fit at 1280",
          description: `${route.path}: ${table} hides ${Math.max(hidden, 0)} px`,
        });
      }
      await page.screenshot({ path: shot(`1280-light-${route.slug}`), fullPage: true });
    });
  });
});

test.describe("display choices, shortcuts and not-found", () => {
  test.use({ viewport: { width: 1440, height: 900 }, timezoneId: "Europe/Paris" });

  test("dark theme from the first paint, local times, keyboard shortcuts, a 404 asked once", async ({
    page,
  }) => {
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

    // ? lists the shortcuts, g e opens the episodes, / focuses the search.
    await page.keyboard.press("?");
    await expect(page.getByTestId("shortcuts-dialog")).toBeVisible();
    await expect(page.getByTestId("shortcuts-dialog")).toContainText("Episodes");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("shortcuts-dialog")).toBeHidden();
    await page.keyboard.press("g");
    await page.keyboard.press("e");
    await expect(page).toHaveURL(/\/episodes$/);
    await waitForPage(page);
    // `/` focuses the page's search box: on the episode list that is the search bar (item 2).
    await page.keyboard.press("/");
    await expect(page.getByTestId("episode-search")).toBeFocused();

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
