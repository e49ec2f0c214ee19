import path from "node:path";
import { expect, test } from "./support/fixtures";
import { seedLivedInConsole, type TSeededConsole } from "./support/console-seed";
import { screenshotsDir } from "./support/paths";

const screenshot = (name: string) => path.join(screenshotsDir, `console-${name}.png`);

let seeded: TSeededConsole;

test.beforeAll(async ({ db }) => {
  seeded = await seedLivedInConsole(db);
});

test.use({ role: "operator" });

const PAGES = [
  { slug: "overview", path: "/", expect: "overview-findings" },
  { slug: "episodes", path: "/episodes", expect: "episodes-table" },
  { slug: "claims", path: "/claims", expect: "claims-table" },
  { slug: "trigger-requests", path: "/trigger-requests", expect: null },
  { slug: "actors", path: "/actors", expect: "actors-list" },
  { slug: "triggers", path: "/triggers", expect: "triggers-table" },
  { slug: "workflows", path: "/workflows", expect: "workflows-table" },
  { slug: "findings", path: "/findings", expect: "findings-table" },
  { slug: "telemetry", path: "/telemetry", expect: "chart-cyclium.work_claims.steal" },
  { slug: "audit", path: "/audit", expect: "audit-table" },
  { slug: "recovery", path: "/recovery", expect: "sweeps-table" },
] as const;

for (const target of PAGES) {
  test(`${target.slug} shows live data without errors`, async ({ page }) => {
    await page.goto(target.path);
    await expect(page.getByTestId("live-indicator").first()).toContainText("Live");
    if (target.expect) await expect(page.getByTestId(target.expect)).toBeVisible();
    await expect(page.getByTestId("query-error")).toHaveCount(0);
    await page.screenshot({ path: screenshot(target.slug), fullPage: true });
  });
}

test("the overview and telemetry raise the seed's alert on a claim steal", async ({ page }) => {
  await page.goto("/telemetry");
  await expect(page.getByTestId("telemetry-alert").first()).toContainText(
    "Steals in normal operation",
  );
});

test("episode, workflow and failed-episode detail pages", async ({ page }) => {
  await page.goto(`/episodes/${seeded.runningEpisodeId}`);
  await expect(page.getByTestId("lease-countdown")).toContainText("left");
  await expect(page.getByTestId("claim-card")).toContainText("stolen 1×");
  await page.screenshot({ path: screenshot("episode-running"), fullPage: true });

  await page.goto(`/episodes/${seeded.failedEpisodeId}`);
  await expect(page.getByTestId("episode-error")).toContainText("step_error");
  await expect(page.getByTestId("episode-retry")).toBeVisible();
  await page.screenshot({ path: screenshot("episode-failed"), fullPage: true });

  await page.goto(`/workflows/${seeded.workflowInstanceId}`);
  await expect(page.getByTestId("step-graph")).toContainText("check_primary");
  await expect(page.getByTestId("step-survey")).toContainText(
    "resource_advisor/summarise_capacity",
  );
  await page.screenshot({ path: screenshot("workflow-instance"), fullPage: true });
});

test("episode filters live in the URL and the env selector scopes every read", async ({ page }) => {
  await page.goto("/episodes");
  await page.getByTestId("filter-status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  const table = page.getByTestId("episodes-table");
  await expect(table).toContainText("failed");
  await expect(table).not.toContainText("completed");
  await page.screenshot({ path: screenshot("episodes-filtered"), fullPage: true });

  // Another env is another world: the same filter shows nothing there, and the env travels
  // with the sidebar.
  await page.getByTestId("env-selector").selectOption("staging-e2e");
  await expect(page).toHaveURL(/env=staging-e2e/);
  await expect(page.getByTestId("episodes-empty")).toBeVisible();
  await page
    .getByRole("navigation", { name: "Console" })
    .getByRole("link", { name: "Findings" })
    .click();
  await expect(page).toHaveURL(/\/findings\?env=staging-e2e/);
  await expect(page.getByTestId("findings-empty")).toBeVisible();
  await page.getByTestId("env-selector").selectOption("default");
  await expect(page).not.toHaveURL(/env=/);
  await expect(page.getByTestId("findings-table")).toBeVisible();
});

test("a retry from the episode page is audited and hands the episode to the worker", async ({
  page,
}) => {
  await page.goto(`/episodes/${seeded.failedEpisodeId}`);
  await page.getByTestId("episode-retry").click();
  await expect(page.getByTestId("episode-status")).not.toContainText("failed");
  await expect(page.getByTestId("recovery-history")).toContainText("retried");
});

test("the claims table cuts a long key, keeps it whole in its tooltip and copies it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/claims");
  const row = page
    .getByTestId("claims-table")
    .locator("tbody tr", { hasText: "trigger:capacity_review_schedule" })
    .first();
  const key = row.locator(".truncated-text").first();
  const full = (await key.getAttribute("title")) ?? "";
  expect(full).toMatch(/^trigger:capacity_review_schedule:.+-0001$/);
  // Cut where its column ends at 1440 px, the whole value still in the text.
  await expect(key).toHaveText(full);
  const box = await key.evaluate((el: { scrollWidth: number; clientWidth: number }) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
  }));
  expect(box.scrollWidth).toBeGreaterThan(box.clientWidth);

  await row.hover();
  const copy = row.getByRole("button", { name: "Copy dedupe key" });
  await expect(copy).toHaveCSS("opacity", "1");
  await page.screenshot({ path: screenshot("claims-copy-hover") });
  await copy.click();
  await expect(row.getByRole("button", { name: "Copied dedupe key" })).toBeVisible();
  expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(full);

  // The change time is compact, the absolute one its tooltip.
  const changed = row.locator("time.time-ago");
  await expect(changed).toHaveAttribute("title", /\d{2}:\d{2}:\d{2} UTC$/);
  await expect(changed.locator(".time-ago-relative")).toContainText("ago");
});
