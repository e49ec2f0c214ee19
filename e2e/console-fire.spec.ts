import path from "node:path";
import { expect, test } from "./support/fixtures";
import {
  clearActorOverride,
  ensureResource,
  manualEpisodesSince,
  reportedOverrides,
  setActorOverride,
} from "./support/console";
import { screenshotsDir } from "./support/paths";
import { E2E_WORKER_IDENTITY } from "./support/processes";

const screenshot = (name: string) => path.join(screenshotsDir, `${name}.png`);
const ACTOR = "resource_monitor";
const EXPECTATION = "check_resource_limits";
const FIRE = `fire-${ACTOR}-${EXPECTATION}`;

// Both tests switch the worker's mode for resource_monitor; they must not overlap.
test.describe.configure({ mode: "serial" });
test.use({ role: "operator" });

test.afterEach(async ({ db }) => {
  await clearActorOverride(db, { actorId: ACTOR });
});

test("an operator fires resource_monitor and watches the episode go pending → completed without reloading", async ({
  page,
  db,
}) => {
  test.setTimeout(60_000);
  await ensureResource(db, "db-primary");
  // Hold the worker back for this actor, so the pending state is on screen long enough to see.
  await setActorOverride(db, { actorId: ACTOR, mode: "trigger_only" });
  await expect.poll(() => reportedOverrides(db)).toMatchObject({ [ACTOR]: "trigger_only" });

  const since = new Date(Date.now() - 1_000);
  await page.goto("/actors");
  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-input`).fill('{ "resourceId": "db-primary" }');
  // A double click is one click intent: one idempotency key, one episode.
  await page.getByTestId(`${FIRE}-submit`).dblclick();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();
  expect(await manualEpisodesSince(db, { actorId: ACTOR, since })).toHaveLength(1);

  // Client-side navigation from here on: no reload anywhere below.
  await link.click();
  const status = page.getByTestId("episode-status");
  await expect(status).toContainText("pending");
  await expect(page.getByTestId("steps-empty")).toBeVisible();
  await page.screenshot({ path: screenshot("console-episode-pending"), fullPage: true });

  await clearActorOverride(db, { actorId: ACTOR });
  await expect(status).toContainText("completed", { timeout: 20_000 });
  const timeline = page.getByTestId("step-timeline");
  await expect(timeline).toBeVisible();
  await expect(timeline).toContainText("done");
  await expect(page.getByTestId("claim-card")).toContainText(E2E_WORKER_IDENTITY);
  await page.screenshot({ path: screenshot("console-episode-completed"), fullPage: true });
});

test("a per-actor override set from the console holds the worker back, and clearing it lets the request run", async ({
  page,
  db,
}) => {
  test.setTimeout(60_000);
  await ensureResource(db, "db-primary");
  await page.goto("/actors");
  const override = page.getByTestId(`mode-${E2E_WORKER_IDENTITY}-${ACTOR}`);
  await override.selectOption("trigger_only");
  await expect.poll(() => reportedOverrides(db)).toMatchObject({ [ACTOR]: "trigger_only" });

  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-input`).fill('{ "resourceId": "db-primary" }');
  await page.getByTestId(`${FIRE}-submit`).click();
  await expect(page.getByTestId("fired-episode-link")).toBeVisible();

  // The request stays pending, and the console says why.
  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Trigger requests" })
    .click();
  const reason = page.getByTestId("pending-reason").first();
  await expect(reason).toContainText(`No live full-mode node has ${ACTOR} in full mode`);
  await expect(reason).toContainText(`${E2E_WORKER_IDENTITY} has ${ACTOR} in trigger_only`);
  await page.screenshot({ path: screenshot("console-trigger-requests-held"), fullPage: true });

  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Actors & modes" })
    .click();
  await page.getByTestId(`mode-${E2E_WORKER_IDENTITY}-${ACTOR}`).selectOption("");
  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Trigger requests" })
    .click();
  await expect(page.getByTestId("requests-pending")).toContainText("0", { timeout: 20_000 });
  await expect(page.getByTestId("pending-reason")).toHaveCount(0);

  await page.goto("/audit?action=modes.");
  await expect(page.getByTestId("audit-table")).toContainText("modes.set");
  await expect(page.getByTestId("audit-table")).toContainText("modes.clear");
});
