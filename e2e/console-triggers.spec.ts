import path from "node:path";
import { expect, test } from "./support/fixtures";
import { firingsOf } from "./support/console";
import { e2eDatabaseUrl } from "./support/env";
import { screenshotsDir } from "./support/paths";
import { startWeb, type ManagedProcess } from "./support/processes";

const screenshot = (name: string) => path.join(screenshotsDir, `${name}.png`);
const ENV = "e2e-cron";
const TRIGGER = "capacity_review_schedule";

// A second console of env e2e-cron whose demo cron trigger fires every 2 s: the run's own
// console inspects that env with ?env= and pauses it there; the trigger's state is in the
// database, so the other node's scheduler obeys it (SPEC section 7).
let cronConsole: ManagedProcess | undefined;

test.beforeAll(async () => {
  cronConsole = await startWeb({
    databaseUrl: e2eDatabaseUrl(),
    name: "web-e2e-cron",
    env: {
      CYCLIUM_ENV: ENV,
      CYCLIUM_NODE_IDENTITY: "web-e2e-cron",
      CYCLIUM_DEMO_REVIEW_CRON: "*/2 * * * * *",
    },
  });
});

test.afterAll(async () => {
  await cronConsole?.stop();
});

test.use({ role: "operator" });

test("pausing a cron trigger stops its firings, resuming restarts them, both in the audit log", async ({
  page,
  db,
}) => {
  test.setTimeout(90_000);
  await page.goto(`/triggers?env=${ENV}`);
  const row = page.getByTestId("triggers-table").getByRole("row", { name: new RegExp(TRIGGER) });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => firingsOf(db, TRIGGER, ENV), { timeout: 20_000 }).toBeGreaterThan(0);

  const pause = row.getByTestId(`trigger-pause-${TRIGGER}`);
  // The second click confirms only once the first has turned the button into the question (two
  // clicks in a row while the live list re-rendered asked twice and paused nothing in a CI run).
  await pause.click();
  await expect(pause).toHaveText("Pause on every node?");
  await pause.click();
  await expect(row).toContainText("paused");
  // A firing already running may still be recorded; after that, nothing for 3 cron windows.
  const settled = await firingsOf(db, TRIGGER, ENV);
  await page.waitForTimeout(6_500);
  expect(await firingsOf(db, TRIGGER, ENV)).toBeLessThanOrEqual(settled + 1);
  const paused = await firingsOf(db, TRIGGER, ENV);
  await page.waitForTimeout(4_500);
  expect(await firingsOf(db, TRIGGER, ENV)).toBe(paused);

  await row.getByTestId(`trigger-resume-${TRIGGER}`).click();
  await expect(row).toContainText("active");
  await expect.poll(() => firingsOf(db, TRIGGER, ENV), { timeout: 20_000 }).toBeGreaterThan(paused);

  // The detail page shows the firing history with each subscriber's outcome.
  await row.getByRole("link", { name: TRIGGER }).click();
  await expect(page.getByTestId("firings-table")).toContainText("capacity_review");
  await expect(page.getByTestId("firings-table")).toContainText("capacity_snapshot");
  await page.screenshot({ path: screenshot("console-trigger-detail"), fullPage: true });

  await page.goto("/audit?action=triggers.");
  const audit = page.getByTestId("audit-table");
  await expect(audit).toContainText("triggers.pause");
  await expect(audit).toContainText("triggers.resume");
  await page.screenshot({ path: screenshot("console-audit"), fullPage: true });
});
