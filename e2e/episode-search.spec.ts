// The episode list's search and a bulk retry over it (issue 14 item 2, docs/console-search.md).
import { randomUUID } from "node:crypto";
import { expect, test } from "./support/fixtures";
import { expectNoSideScroll } from "./support/layout-walk";

test("a search narrows the list, says its total and retries every match after a preview", async ({
  page,
  db,
}) => {
  const expectation = `e2e_search_${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
     SELECT 'e2e_actor', $1, CASE WHEN i <= 3 THEN 'failed' ELSE 'completed' END, 'manual'
       FROM generate_series(1, 5) AS i`,
    [expectation],
  );
  await page.goto("/episodes");
  const search = page.getByRole("searchbox", { name: "Search" });

  // Typed once the page has hydrated (its live stream is open): text typed into the server's
  // HTML before that never reaches the page's handlers (a CI run lost it).
  await expect(page.locator(".refresh-control")).toHaveAttribute("data-state", "on");
  await search.fill("stauts:failed");
  await search.press("Enter");
  await expect(page.getByTestId("episode-search-error")).toContainText("Unknown qualifier stauts:");

  await search.fill(`expectation:${expectation} status:failed`);
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=expectation%3A/);
  await expect(page.getByTestId("episode-total")).toHaveText("3 matching episodes");

  await page.getByRole("button", { name: "Select all 3 matching" }).click();
  await page.getByRole("button", { name: "Retry…" }).click();
  const dialog = page.getByRole("dialog", { name: "Retry every matching episode" });
  await expect(dialog.getByTestId("bulk-preview")).toContainText("3 matching episodes are failed");
  await dialog.getByRole("button", { name: "Retry 3 episodes" }).click();
  await expect(dialog.getByTestId("bulk-outcome")).toContainText("3 retried");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(page.getByTestId("episode-total")).toHaveText("0 matching episodes");
});

test("the search, its total and the bulk dialog fit a 390 px phone", async ({
  page,
  db,
}, testInfo) => {
  const expectation = `e2e_phone_${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
     SELECT 'e2e_actor', $1, 'pending', 'manual' FROM generate_series(1, 2)`,
    [expectation],
  );
  await page.setViewportSize({ width: 390, height: 844 });
  const query = `expectation:${expectation} status:pending`;
  await page.goto(`/episodes?q=${encodeURIComponent(query)}`);
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(query);
  await expect(page.getByTestId("episode-total")).toHaveText("2 matching episodes");
  await page.getByRole("button", { name: "Select all 2 matching" }).click();
  await page.getByRole("button", { name: "Cancel…" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel every matching episode" });
  await expect(dialog.getByTestId("bulk-preview")).toContainText("2 matching episodes are pending");
  await page.screenshot({ path: testInfo.outputPath("episode-search-390.png") });
  await expectNoSideScroll(page, "the episode list with the bulk dialog at 390 px");
  await dialog.getByRole("button", { name: "Not now" }).click();
  await expect(dialog).toBeHidden();
});
