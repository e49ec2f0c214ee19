import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import {
  clearActorOverride,
  ensureResource,
  reportedOverrides,
  setActorOverride,
} from "./support/console";
import { E2E_WORKER_IDENTITY } from "./support/processes";

// Issue 14 item 1: the console's pages follow the cluster by push (live.events over SSE), and
// "paused" means no requests at all. The latencies are reported, not asserted: they depend on
// the machine's load, and a slow run should say how slow rather than fail.
const ACTOR = "resource_monitor";
const EXPECTATION = "check_resource_limits";
const FIRE = `fire-${ACTOR}-${EXPECTATION}`;

test.describe.configure({ mode: "serial" });
test.use({ role: "operator" });

test.afterEach(async ({ db }) => {
  await clearActorOverride(db, { actorId: ACTOR });
});

/**
 * Records in the page the wall-clock time at which `read()` first returns `expected`, checked on
 * every DOM mutation (so the figure is when React rendered it, not when Playwright next polled).
 */
async function watchStatus(page: Page, selector: string, expected: string) {
  // A string, run in the page: the e2e package compiles without the DOM library.
  await page.evaluate(`(() => {
    const selector = ${JSON.stringify(selector)};
    const expected = ${JSON.stringify(expected)};
    delete window.__statusSeenAt;
    const check = () => {
      const el = document.querySelector(selector);
      if (window.__statusSeenAt === undefined && el && el.dataset.status === expected) {
        window.__statusSeenAt = Date.now();
      }
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true, childList: true, attributes: true, characterData: true,
    });
    check();
  })()`);
}

const seenAt = (page: Page) => page.evaluate<number | null>("window.__statusSeenAt ?? null");

/** The refresh control says the stream is connected and fed by the bus. */
const expectStreaming = (page: Page) =>
  expect(page.locator(".refresh-control")).toHaveAttribute("data-state", "on");

test("a fired episode's completion reaches the open list and detail pages by push", async ({
  page,
  context,
  db,
}) => {
  test.setTimeout(90_000);
  await ensureResource(db, "db-primary");
  // Hold the worker back, so both pages are open and showing `pending` before it runs.
  await setActorOverride(db, { actorId: ACTOR, mode: "trigger_only" });
  await expect.poll(() => reportedOverrides(db)).toMatchObject({ [ACTOR]: "trigger_only" });

  await page.goto("/actors");
  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-input`).fill('{ "resourceId": "db-primary" }');
  await page.getByTestId(`${FIRE}-submit`).click();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  const id = /\/episodes\/([0-9a-f-]{36})/.exec(href ?? "")?.[1];
  if (id === undefined) throw new Error(`no episode id in ${href}`);

  const list = page;
  await list.goto("/episodes");
  const rowStatus = `tr:has(a[href*="/episodes/${id}"]) [data-status]`;
  await expect(list.locator(rowStatus)).toHaveAttribute("data-status", "pending");
  const detail = await context.newPage();
  await detail.goto(`/episodes/${id}`);
  const detailStatus = `[data-testid="episode-status"] [data-status]`;
  await expect(detail.locator(detailStatus)).toHaveAttribute("data-status", "pending");
  await expectStreaming(list);
  await expectStreaming(detail);
  await watchStatus(list, rowStatus, "completed");
  await watchStatus(detail, detailStatus, "completed");

  await clearActorOverride(db, { actorId: ACTOR });
  // Generous: the worker must first notice the override is gone and run the episode.
  await expect(list.locator(rowStatus)).toHaveAttribute("data-status", "completed", {
    timeout: 30_000,
  });
  await expect(detail.locator(detailStatus)).toHaveAttribute("data-status", "completed", {
    timeout: 30_000,
  });

  const { rows } = await db.query<{ finished_ms: number; started_ms: number }>(
    `SELECT extract(epoch FROM finished_at) * 1000 AS finished_ms,
            extract(epoch FROM started_at) * 1000 AS started_ms
       FROM cyclium_episodes WHERE id = $1`,
    [id],
  );
  const finishedMs = Number(rows[0]?.finished_ms);
  const listMs = (await seenAt(list)) ?? Number.NaN;
  const detailMs = (await seenAt(detail)) ?? Number.NaN;
  const figures = {
    episode: id,
    runMs: Math.round(finishedMs - Number(rows[0]?.started_ms)),
    listAfterFinishedMs: Math.round(listMs - finishedMs),
    detailAfterFinishedMs: Math.round(detailMs - finishedMs),
  };
  // Reported, not asserted (issue 14's acceptance): the list polls every 30 s and the detail of
  // an active episode every 5 s in live mode, so a figure well under a second is the push.
  console.log(`[live-updates] ${JSON.stringify(figures)}`);
  test.info().annotations.push({ type: "latency", description: JSON.stringify(figures) });
  expect(Number.isFinite(figures.listAfterFinishedMs)).toBe(true);
  expect(Number.isFinite(figures.detailAfterFinishedMs)).toBe(true);
  await detail.close();
});

test("an override set from the console shows applied as soon as the worker applies it", async ({
  page,
  db,
}) => {
  test.setTimeout(60_000);
  await page.goto("/actors");
  await expectStreaming(page);
  const testId = `mode-${E2E_WORKER_IDENTITY}-${ACTOR}`;
  // In the page: when the cell last stopped saying "applying…" with the override selected.
  await page.evaluate(`(() => {
    delete window.__appliedAt;
    const check = () => {
      const select = document.querySelector('[data-testid="${testId}"]');
      const cell = select && select.closest(".mode-cell");
      if (!cell || select.value !== "trigger_only") return;
      if (cell.textContent.includes("applying")) delete window.__appliedAt;
      else if (window.__appliedAt === undefined) window.__appliedAt = Date.now();
    };
    new MutationObserver(check).observe(document.body, {
      subtree: true, childList: true, attributes: true, characterData: true,
    });
  })()`);
  const select = page.getByTestId(testId);
  const cell = page.locator(".mode-cell", { has: select });
  await select.selectOption("trigger_only");
  await expect.poll(() => reportedOverrides(db)).toMatchObject({ [ACTOR]: "trigger_only" });
  await expect(cell).not.toContainText("applying");
  const { rows } = await db.query<{ written_ms: number; beat_ms: number }>(
    `SELECT extract(epoch FROM o.updated_at) * 1000 AS written_ms,
            extract(epoch FROM n.last_seen_at) * 1000 AS beat_ms
       FROM cyclium_mode_overrides o, cyclium_nodes n
      WHERE o.target_node = $1 AND o.actor_id = $2 AND n.identity = $1`,
    [E2E_WORKER_IDENTITY, ACTOR],
  );
  const appliedAt = await page.evaluate<number | null>("window.__appliedAt ?? null");
  const figures = {
    // The console's write to the worker's heartbeat recording the new modes.
    workerAppliedMs: Math.round(Number(rows[0]?.beat_ms) - Number(rows[0]?.written_ms)),
    // The console's write to the page no longer saying "applying…".
    shownAppliedAfterWriteMs: Math.round((appliedAt ?? Number.NaN) - Number(rows[0]?.written_ms)),
  };
  console.log(`[live-updates] ${JSON.stringify(figures)}`);
  test.info().annotations.push({ type: "latency", description: JSON.stringify(figures) });
});

test("paused refresh sends no requests; picking an interval again resumes them", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto("/episodes");
  await expect(page.getByTestId("episodes-table")).toBeVisible();
  const control = page.getByTestId("refresh-mode");
  await control.selectOption("paused");
  await expect(page.getByTestId("live-indicator").first()).toHaveAttribute("data-state", "paused");

  const calls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/trpc")) calls.push(request.url());
  });
  // The observation itself: six seconds in which a polling page would have sent several reads
  // (the list polls every 2 s without a stream) and a live one would hold its stream open.
  await page.waitForTimeout(6_000);
  expect(calls, calls.join("\n")).toEqual([]);

  // The choice is this browser's: a reload keeps it.
  await page.reload();
  await expect(page.getByTestId("episodes-table")).toBeVisible();
  await expect(control).toHaveValue("paused");

  calls.length = 0;
  await control.selectOption("5s");
  await expect.poll(() => calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
  await control.selectOption("live");
});
