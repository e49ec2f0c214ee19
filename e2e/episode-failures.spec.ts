// Failures you can investigate (issue 14 item 3), in the browser: a failed episode's ZodError
// reads as path: message lines, its attempts keep their errors (stack collapsed), its page says
// what the episode, claim and request states mean, and a retry with edited input is checked
// against the expectation's schema before the worker runs it again.
import path from "node:path";
import type pg from "pg";
import {
  GREET_EXPECTATION,
  GREETER_ACTOR,
  LEDGER_ACTOR,
  LEDGER_EXPECTATION,
  LEDGER_FAILURE,
  ZGreetInput,
} from "./deployment/e2e-deployment";
import { expect, test } from "./support/fixtures";
import { expectNoSideScroll, showTheme } from "./support/layout-walk";
import { screenshotsDir } from "./support/paths";
import { E2E_WORKER_IDENTITY } from "./support/processes";

test.use({ role: "operator" });

/** A greeter episode whose first attempt failed in init, as a strategy parsing its input does. */
async function seedFailedEpisode(db: pg.Pool): Promise<string> {
  const input = { steps: 3 };
  const zodMessage = ZGreetInput.safeParse(input).error?.message ?? "";
  const message = `init failed: ${zodMessage}`;
  const stack = `ZodError: ${zodMessage}\n    at Object.init (greet-strategy.ts:12:34)`;
  const { rows } = await db.query<{ id: string }>(
    `WITH episode AS (
       INSERT INTO cyclium_episodes
         (actor_id, expectation_id, status, trigger_type, input, error_class, error_message,
          executed_by, started_at, finished_at)
       VALUES ($1, $2, 'failed', 'manual', $3::jsonb, 'ZodError', $4, 'worker-e2e-1', now(), now())
       RETURNING id
     ), attempt AS (
       INSERT INTO cyclium_episode_attempts
         (episode_id, attempt, outcome, error_class, error_message, error_stack, node)
       SELECT id, 1, 'failed', 'ZodError', $4, $5, 'worker-e2e-1' FROM episode
     )
     SELECT id FROM episode`,
    [GREETER_ACTOR, GREET_EXPECTATION, JSON.stringify(input), message, stack],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("no episode seeded");
  return id;
}

test("a failed episode's attempts, its zod issues and a retry with edited input that the worker runs", async ({
  page,
  db,
}) => {
  test.setTimeout(60_000);
  const id = await seedFailedEpisode(db);
  await page.goto(`/episodes/${id}`);

  // The ZodError as lines, not a JSON dump.
  await expect(page.getByTestId("episode-error-issues")).toContainText("name:");
  await expect(page.getByTestId("episode-error")).not.toContainText('"code"');

  // The attempt keeps its error; the stack is there, collapsed.
  const attempt = page.getByTestId("attempt-1");
  await expect(attempt).toContainText("ZodError");
  await expect(attempt).toContainText("worker-e2e-1");
  await expect(page.getByTestId("attempt-1-issues")).toContainText("name:");
  const stack = page.getByTestId("attempt-1-stack");
  await expect(stack).toBeHidden();
  await attempt.getByText("Stack trace").click();
  await expect(stack).toContainText("greet-strategy.ts");

  // The three records read as one story.
  const story = page.getByTestId("episode-story");
  await expect(story).toContainText("the outcome");
  await expect(story).toContainText("Work claim");

  // Retry with edited input: pre-filled with what failed, refused until the schema passes.
  await page.getByTestId("episode-retry-edit").click();
  await expect(page.getByTestId("retry-input-input")).toContainText('"steps": 3');
  await expect(page.getByTestId("retry-input-field-name-error")).toContainText("Required");
  await expect(page.getByTestId("retry-input-submit")).toBeDisabled();
  await page.screenshot({
    path: path.join(screenshotsDir, "episode-failed-attempts.png"),
    fullPage: true,
  });
  await page.getByTestId("retry-input-field-name").fill("Ada");
  await expect(page.getByTestId("retry-input-field-name-error")).toBeHidden();
  await page.getByTestId("retry-input-submit").click();

  // The worker runs attempt 2 with the edited input; attempt 1's error stays on the page.
  await expect(page.getByTestId("episode-status")).toContainText("completed", { timeout: 30_000 });
  await expect(page.getByTestId("attempt-1")).toContainText("ZodError");
  const { rows } = await db.query<{ attempt: number; input: unknown }>(
    "SELECT attempt, input FROM cyclium_episodes WHERE id = $1",
    [id],
  );
  expect(rows[0]).toEqual({ attempt: 2, input: { name: "Ada", steps: 3 } });
});

// Issue 31: the stack of what a strategy threw, from the worker that ran it, on the attempt
// view. The console shows it to every signed-in role, as it does the episode's input, result and
// error: the page has a role concept for actions only, not for details.
test("a strategy's stack, as the worker kept it, on the attempt view at 390 and 1,440 px, light and dark", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const fire = `fire-${LEDGER_ACTOR}-${LEDGER_EXPECTATION}`;
  await page.goto("/actors");
  await page.getByTestId(fire).click();
  await page.getByTestId(`${fire}-input`).fill("{}");
  await page.getByTestId(`${fire}-submit`).click();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByTestId("episode-status")).toContainText("failed", { timeout: 20_000 });

  const attempt = page.getByTestId("attempt-1");
  await expect(attempt).toContainText("LedgerLockedError");
  await expect(attempt).toContainText(E2E_WORKER_IDENTITY);
  const stack = page.getByTestId("attempt-1-stack");
  await expect(stack).toBeHidden();
  await attempt.getByText("Stack trace").click();
  await expect(stack).toContainText(`LedgerLockedError: ${LEDGER_FAILURE}`);
  await expect(stack).toContainText("postLedgerEntry");
  // Monospace, lines kept as thrown; a long line scrolls inside the block, not the page.
  await expect(stack).toHaveCSS("white-space", "pre");
  await expect(stack).toHaveCSS("font-family", /mono/i);

  for (const viewport of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1440, height: 900 },
  ]) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const theme of ["light", "dark"] as const) {
      await showTheme(page, theme);
      const what = `the attempt's stack at ${viewport.width} px in ${theme}`;
      await expectNoSideScroll(page, what);
      const box = await stack.boundingBox();
      expect(box, what).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), what).toBeLessThanOrEqual(viewport.width);
      // The card alone: a full-page shot at 390 px is mostly other cards.
      await page.getByTestId("attempts-card").screenshot({
        path: path.join(screenshotsDir, `episode-attempt-stack-${viewport.name}-${theme}.png`),
      });
    }
  }
});
