import path from "node:path";
import { expect, test } from "./support/fixtures";
import {
  clearActorOverride,
  ensureResource,
  reportedOverrides,
  setActorOverride,
} from "./support/console";
import { expectNoSideScroll, waitForPage } from "./support/layout-walk";
import { screenshotsDir } from "./support/paths";
import { E2E_WORKER_IDENTITY } from "./support/processes";

// Issue 14 items 4 and 6 on a phone (390x844): a held episode says why it waits on its page and
// in the lists; an operator sets an actor's limit on the worker and clears all its overrides.
const screenshot = (name: string) => path.join(screenshotsDir, `${name}.png`);
const ACTOR = "resource_monitor";
const EXPECTATION = "check_resource_limits";
const FIRE = `fire-${ACTOR}-${EXPECTATION}`;
const WORKER = E2E_WORKER_IDENTITY;

// Both change the worker's overrides for resource_monitor (console-fire.spec does too).
test.describe.configure({ mode: "serial" });
test.use({ role: "operator", viewport: { width: 390, height: 844 } });

test.afterEach(async ({ db }) => {
  await clearActorOverride(db, { actorId: ACTOR });
  await db.query("DELETE FROM cyclium_concurrency_overrides WHERE target_node = $1", [WORKER]);
  await db.query("SELECT pg_notify('cyclium_modes', $1)", [WORKER]);
});

test("a held episode says why it waits on its page and in both lists, and stops when it runs", async ({
  page,
  db,
}) => {
  test.setTimeout(90_000);
  await ensureResource(db, "db-primary");
  await setActorOverride(db, { actorId: ACTOR, mode: "trigger_only" });
  await expect.poll(() => reportedOverrides(db)).toMatchObject({ [ACTOR]: "trigger_only" });

  await page.goto("/actors");
  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-input`).fill('{ "resourceId": "db-primary" }');
  await page.getByTestId(`${FIRE}-submit`).click();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();
  const href = await link.getAttribute("href");
  await link.click();

  const callout = page.getByTestId("wait-callout");
  await expect(callout).toHaveAttribute("data-code", "actor_not_full");
  await expect(callout).toContainText(`${WORKER} has ${ACTOR} in trigger_only by an override`);
  await expectNoSideScroll(page, "held episode at 390");
  await page.screenshot({ path: screenshot("wait-callout-phone"), fullPage: true });

  await page.goto("/episodes?status=pending");
  await waitForPage(page);
  const row = page.locator(`a[href="${href}"]`).first();
  await expect(row).toBeVisible();
  await expect(page.getByTestId("wait-badge").first()).toContainText("held by mode");
  await expectNoSideScroll(page, "episode list at 390");
  await page.goto("/trigger-requests");
  await waitForPage(page);
  await expect(page.getByTestId("wait-badge").first()).toContainText("held by mode");

  await clearActorOverride(db, { actorId: ACTOR });
  await page.goto(href ?? "/episodes");
  await expect(page.getByTestId("episode-status")).toContainText("completed", { timeout: 30_000 });
  await expect(callout).toHaveCount(0);
});

test("an operator sets resource_monitor's limit on the worker, then clears all its overrides, audited", async ({
  page,
  db,
}) => {
  test.setTimeout(60_000);
  const stored = async () => {
    const { rows } = await db.query<{ max: number }>(
      `SELECT max_concurrent_episodes AS max FROM cyclium_concurrency_overrides
        WHERE target_node = $1 AND actor_id = $2`,
      [WORKER, ACTOR],
    );
    return rows[0]?.max ?? null;
  };
  await page.goto("/actors");
  await waitForPage(page);
  const limit = page.getByTestId(`limit-${WORKER}-${ACTOR}`);
  await limit.fill("5");
  await limit.press("Enter");
  await expect.poll(stored).toBe(5);
  await expect(limit).toHaveAttribute("data-overridden", "true");
  // Out of range: refused in place, nothing sent.
  await limit.fill("0");
  await expect(page.getByRole("alert").filter({ hasText: "1-10,000" })).toBeVisible();
  await limit.press("Escape");
  await expect(limit).toHaveValue("5");

  await page.getByTestId(`mode-${WORKER}-${ACTOR}`).selectOption("trigger_only");
  await expect.poll(() => reportedOverrides(db)).toMatchObject({ [ACTOR]: "trigger_only" });
  await expectNoSideScroll(page, "actors page with overrides at 390");
  await page.screenshot({ path: screenshot("node-limits-phone"), fullPage: true });

  const clearAll = page.getByTestId(`clear-node-${WORKER}`);
  await expect(clearAll).toContainText("Clear all 2 overrides");
  await clearAll.click();
  await expect(clearAll).toContainText("Yes, clear all");
  await clearAll.click();
  await expect.poll(stored).toBeNull();
  await expect.poll(() => reportedOverrides(db)).toEqual({});
  await expect(clearAll).toHaveCount(0);

  await page.goto("/audit?action=modes.");
  const audit = page.getByTestId("audit-table");
  await expect(audit).toContainText("modes.set_limit");
  await expect(audit).toContainText("modes.clear_node");
});
