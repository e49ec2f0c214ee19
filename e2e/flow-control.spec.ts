// Flow control as an operator meets it (SPEC section 16): a fire for later and at a priority,
// a failure retried after its backoff, and a second call held by a cluster-wide limit, each
// explained on the episode's page ("Why it waits").
import type { Page } from "@playwright/test";
import type pg from "pg";
import {
  FLAKY_ACTOR,
  FLAKY_EXPECTATION,
  LIMITED_ACTOR,
  LIMITED_EXPECTATION,
} from "./deployment/e2e-deployment";
import { E2E_WORKER_IDENTITY } from "./support/processes";
import { expect, test } from "./support/fixtures";

test.use({ role: "operator" });

const LIMITED = `fire-${LIMITED_ACTOR}-${LIMITED_EXPECTATION}`;
const FLAKY = `fire-${FLAKY_ACTOR}-${FLAKY_EXPECTATION}`;

/** Fires from the Actors page's form, optionally later and at a priority; the episode's id. */
async function fireFromForm(
  page: Page,
  fire: string,
  later?: { delayMinutes: number; priority: number },
): Promise<string> {
  await page.goto("/actors");
  await page.getByTestId(fire).click();
  await expect(page.getByTestId(`${fire}-form`)).toBeVisible();
  if (later !== undefined) {
    await page.getByTestId(`${fire}-when`).selectOption("delay");
    await page.getByTestId(`${fire}-delay`).fill(String(later.delayMinutes));
    await page.getByTestId(`${fire}-priority`).fill(String(later.priority));
  }
  await page.getByTestId(`${fire}-submit`).click();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();
  return (await link.getAttribute("href"))?.split("/").pop() ?? "";
}

async function statusOf(db: pg.Pool, id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ status: string }>(
    "SELECT status FROM cyclium_episodes WHERE id = $1",
    [id],
  );
  return rows[0]?.status;
}

test("an operator sees why work waits: scheduled, a retry's backoff, a global limit", async ({
  page,
  db,
}) => {
  test.setTimeout(90_000);
  const fired: string[] = [];
  try {
    // For later, at priority 7: pending, and the page says until when and at which priority.
    const later = await fireFromForm(page, LIMITED, { delayMinutes: 30, priority: 7 });
    fired.push(later);
    await page.goto(`/episodes/${later}`);
    const callout = page.getByTestId("wait-callout");
    await expect(callout).toHaveAttribute("data-code", "scheduled");
    await expect(callout).toContainText(/Scheduled: no node takes it before .*priority 7/);

    // A failure with attempts left: attempt 2 of 3, scheduled after its backoff.
    const flaky = await fireFromForm(page, FLAKY);
    fired.push(flaky);
    await page.goto(`/episodes/${flaky}`);
    await expect(page.getByTestId("episode-attempt")).toHaveText("2 of 3", { timeout: 20_000 });
    await expect(callout).toHaveAttribute("data-code", "scheduled", { timeout: 15_000 });
    await expect(page.getByTestId("attempt-1")).toContainText("the provider answered 429");

    // One call holds the only slot of the cluster (concurrency: { global: 1 }) ...
    const first = await fireFromForm(page, LIMITED);
    fired.push(first);
    await expect.poll(() => statusOf(db, first), { timeout: 20_000 }).toBe("running");
    // ... so the next waits, and the page names the limit and where the slot is taken.
    const second = await fireFromForm(page, LIMITED);
    fired.push(second);
    await page.goto(`/episodes/${second}`);
    await expect(callout).toHaveAttribute("data-code", "concurrency_limited", { timeout: 20_000 });
    await expect(callout).toContainText(
      `Global limit 1/1, running on ${E2E_WORKER_IDENTITY}: it starts when one of them ends.`,
    );
    expect(await statusOf(db, second)).toBe("pending");
    // The slot frees when the first ends: the second starts then, not before.
    await expect.poll(() => statusOf(db, first), { timeout: 30_000 }).toBe("completed");
    await expect.poll(() => statusOf(db, second), { timeout: 10_000 }).not.toBe("pending");
  } finally {
    // Nothing is left waiting or running for the specs that follow.
    await db.query(
      "UPDATE cyclium_episodes SET status = 'cancelled', finished_at = now() WHERE id = ANY($1::uuid[]) AND status IN ('pending', 'running')",
      [fired],
    );
  }
});
