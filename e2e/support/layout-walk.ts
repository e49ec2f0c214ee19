// The console-layout spec's walk: every page of apps/web/src/app with what must be on screen,
// and the checks run on each (no sideways scroll, primary actions inside the viewport, axe,
// screenshots in light and dark).
import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import type { TSeededConsole } from "./console-seed";
import { collectBrowserErrors } from "./browser-errors";

export interface TWalkedPage {
  slug: string;
  path: string;
  /** The primary actions of the page: visible and not cut off on either side. */
  actions: (page: Page) => Locator[];
}

export type TTheme = "light" | "dark";

/** Every route under apps/web/src/app that renders a page (API routes and /metrics excluded). */
export function consoleRoutes(seeded: TSeededConsole & { triggerName: string }): TWalkedPage[] {
  // Pages without a button of their own: the navigation is the primary action.
  const nav = (page: Page) => [navigation(page)];
  return [
    { slug: "overview", path: "/", actions: (page) => [page.getByTestId("theme-toggle")] },
    {
      slug: "episodes",
      path: "/episodes",
      actions: (page) => [page.getByTestId("filter-status")],
    },
    {
      slug: "episode-failed",
      path: `/episodes/${seeded.failedEpisodeId}`,
      actions: (page) => [page.getByTestId("episode-retry")],
    },
    { slug: "claims", path: "/claims", actions: nav },
    { slug: "trigger-requests", path: "/trigger-requests", actions: nav },
    { slug: "actors", path: "/actors", actions: nav },
    { slug: "triggers", path: "/triggers", actions: nav },
    {
      slug: "trigger-detail",
      path: `/triggers/${seeded.triggerName}`,
      actions: (page) => [
        page.getByRole("button", { name: "Fire", exact: true }),
        page.getByRole("button", { name: "Pause", exact: true }),
      ],
    },
    { slug: "workflows", path: "/workflows", actions: nav },
    { slug: "workflow-instance", path: `/workflows/${seeded.workflowInstanceId}`, actions: nav },
    { slug: "findings", path: "/findings", actions: nav },
    { slug: "telemetry", path: "/telemetry", actions: nav },
    { slug: "audit", path: "/audit", actions: nav },
    { slug: "recovery", path: "/recovery", actions: nav },
    { slug: "admin", path: "/admin", actions: nav },
    { slug: "not-found", path: "/triggers/nope-not-a-trigger", actions: nav },
  ];
}

/** The menu button on a phone (the sidebar is a drawer there), else the sidebar's links. */
function navigation(page: Page): Locator {
  const phone = (page.viewportSize()?.width ?? 0) <= 760;
  return phone
    ? page.getByTestId("nav-menu-button")
    : page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Episodes" });
}

/** Waits for what an operator waits for: the title, and no list still loading. */
export async function waitForPage(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

// Runs in the page (a string: the e2e package compiles without the DOM library). Besides the two
// widths it names the outermost elements that stick out to the right and are not clipped by a
// scrolling ancestor: the ones to fix when a page scrolls sideways.
const MEASURE_SIDE_SCROLL = `(() => {
  const root = document.documentElement;
  const limit = root.clientWidth + 0.5;
  const clipped = (element) => {
    for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  const describe = (element) =>
    element.tagName.toLowerCase() +
    (element.dataset.testid ? "[data-testid=" + element.dataset.testid + "]" : "") +
    (typeof element.className === "string" && element.className
      ? "." + element.className.trim().split(/\\s+/).join(".")
      : "") +
    " (" + Math.round(element.getBoundingClientRect().right - root.clientWidth) + " px)";
  const offenders = [...document.body.querySelectorAll("*")]
    .filter((element) => element.getBoundingClientRect().right > limit && !clipped(element))
    .filter((element) => !element.parentElement || element.parentElement.getBoundingClientRect().right <= limit)
    .slice(0, 5)
    .map(describe);
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders };
})()`;

export async function expectNoSideScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, clientWidth, offenders } = await page.evaluate<{
    scrollWidth: number;
    clientWidth: number;
    offenders: string[];
  }>(MEASURE_SIDE_SCROLL);
  expect
    .soft(
      scrollWidth,
      `${what} scrolls sideways by ${scrollWidth - clientWidth} px: ${offenders.join(", ")}`,
    )
    .toBeLessThanOrEqual(clientWidth);
}

// Runs in the page: how far each table's columns reach past its box (DataTable's .table-wrap
// scrolls them sideways rather than the page), by the table's test id.
const MEASURE_TABLES = `[...document.querySelectorAll(".table-wrap")].map((wrap) => ({
  table: wrap.querySelector("table")?.dataset.testid ?? "a table",
  hidden: wrap.scrollWidth - wrap.clientWidth,
}))`;

/**
 * Every column of every table in view without scrolling the table sideways (on a desktop: the
 * claims table's Detail sat behind a scroll at 1,440 px). Phones show tables as cards instead.
 */
export async function expectTablesFit(page: Page, what: string): Promise<void> {
  for (const { table, hidden } of await measureTables(page)) {
    expect.soft(hidden, `${what}: ${table} hides ${hidden} px of columns`).toBeLessThanOrEqual(0);
  }
}

/** How many px of columns each table hides (0 when every column is in view). */
export async function measureTables(page: Page): Promise<{ table: string; hidden: number }[]> {
  return page.evaluate<{ table: string; hidden: number }[]>(MEASURE_TABLES);
}

/** Visible, and its box inside the viewport's width (not pushed off to the right). */
export async function expectOnScreen(page: Page, action: Locator, what: string): Promise<void> {
  await expect.soft(action, `${what}: primary action visible`).toBeVisible();
  if (!(await action.isVisible())) return;
  const box = await action.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (box) {
    expect.soft(box.x, `${what}: primary action starts on screen`).toBeGreaterThanOrEqual(0);
    expect
      .soft(box.x + box.width, `${what}: primary action ends on screen`)
      .toBeLessThanOrEqual(width);
  }
}

/** axe-core's WCAG 2.x A/AA rules (best-practice left out to save time per page); a serious or critical violation fails the page. */
export async function expectNoSeriousAxeViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(" | ")}`,
    );
  // Soft: one run lists every page's violations instead of stopping at the first page.
  expect.soft(blocking, `axe on ${what}`).toEqual([]);
}

/**
 * Switches the page between themes the way a system setting does (the console's default choice is
 * "system", which follows prefers-color-scheme live) and waits until <html> carries it.
 */
export async function showTheme(page: Page, theme: TTheme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
}

/**
 * Visits `routes` with `tabs` pages of one context side by side, each taking the next route when
 * it is done with one: a page spends most of its visit waiting on the server or on axe in the
 * browser, so two tabs overlap those waits. Like the `page` fixture, fails on any uncaught
 * exception or console error in any tab.
 */
export async function walkInTabs(
  context: BrowserContext,
  routes: readonly TWalkedPage[],
  tabs: number,
  visit: (page: Page, route: TWalkedPage) => Promise<void>,
): Promise<void> {
  const queue = [...routes];
  const errors: string[] = [];
  const worker = async () => {
    const page = await context.newPage();
    collectBrowserErrors(page, errors, { withUrl: true });
    for (let route = queue.shift(); route; route = queue.shift()) await visit(page, route);
    await page.close();
  };
  await Promise.all(Array.from({ length: tabs }, worker));
  expect(errors, "errors in the browser").toEqual([]);
}
