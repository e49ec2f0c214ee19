import path from "node:path";
import { randomUUID } from "node:crypto";
import { expect, test } from "./support/fixtures";
import { screenshotsDir } from "./support/paths";

// Issue 14 item 7: the Telemetry page's per-actor charts. Episodes of an actor of its own with
// known outcomes, finished minutes ago; the page shows their throughput and timings, the range
// switches to hourly buckets, and every axis names its zone.
const actorId = `e2e_charts_${randomUUID().slice(0, 8)}`;

test.use({ role: "viewer", timezoneId: "Europe/Paris" });

test.beforeAll(async ({ db }) => {
  await db.query(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, inserted_at, started_at, finished_at)
     SELECT $1, 'run', s.status, 'manual', now() - interval '5 minutes' - s.wait,
            now() - interval '5 minutes', now() - interval '5 minutes' + s.run
       FROM (VALUES ('completed', interval '1 second', interval '2 seconds'),
                    ('completed', interval '3 seconds', interval '4 seconds'),
                    ('failed', interval '2 seconds', interval '30 seconds')) AS s(status, wait, run)`,
    [actorId],
  );
});

test("one actor's throughput, queue wait and run time, per minute then per hour, zone named", async ({
  page,
}) => {
  await page.goto(`/telemetry?actor=${actorId}`);
  const section = page.getByTestId("actor-charts");
  await expect(section.getByTestId("actor-charts-actor")).toHaveValue(actorId);
  const throughput = section.getByTestId("actor-chart-throughput");
  await expect(throughput).toContainText("3 finished (1 failed)");
  await expect(throughput.getByTestId("chart-axis-zone")).toHaveText(
    "episodes finished per minute, UTC",
  );
  await expect(section.getByTestId("actor-chart-wait")).toContainText("worst p95");
  await expect(section.getByTestId("actor-chart-run")).toContainText("worst p95");
  await expect(section.getByTestId("actor-alert-cyclium.work_claims.steal")).toBeVisible();
  await page.screenshot({
    path: path.join(screenshotsDir, "actor-charts-1h.png"),
    fullPage: true,
  });

  await section.getByTestId("actor-charts-range").selectOption("7d");
  await expect(page).toHaveURL(/range=7d/);
  await expect(throughput.getByTestId("chart-axis-zone")).toHaveText(
    "episodes finished per hour, UTC",
  );
  await expect(throughput).toContainText("3 finished (1 failed)");

  await page.getByTestId("time-zone-toggle").click();
  await expect(throughput.getByTestId("chart-axis-zone")).toHaveText(
    "episodes finished per hour, Europe/Paris",
  );
  await page.getByTestId("time-zone-toggle").click();
});
