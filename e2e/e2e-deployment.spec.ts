import {
  GREETER_ACTOR,
  GREET_EXPECTATION,
  GREETING_TRIGGER,
  GREETING_WORKFLOW,
} from "./deployment/e2e-deployment";
import { manualEpisodesSince } from "./support/console";
import { expect, test } from "./support/fixtures";
import { E2E_WORKER_IDENTITY } from "./support/processes";

// The console and the worker of this run both load e2e/deployment/e2e-deployment.ts, a
// deployment that is not the demo (CYCLIUM_DEPLOYMENT, SPEC section 13): what a team does with
// its own actors. These tests use what only that module declares.
const FIRE = `fire-${GREETER_ACTOR}-${GREET_EXPECTATION}`;

test.use({ role: "operator" });
// Each waits for a worker to run an episode or two; console-fire.spec.ts allows the same.
test.beforeEach(() => test.setTimeout(60_000));

test("an operator fires the deployment's own actor from the console and a worker completes it", async ({
  page,
  db,
}) => {
  const since = new Date(Date.now() - 1_000);
  await page.goto("/actors");
  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-input`).fill('{ "name": "Ada", "steps": 3 }');
  await page.getByTestId(`${FIRE}-submit`).click();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();

  await link.click();
  await expect(page.getByTestId("episode-status")).toContainText("completed", { timeout: 20_000 });
  // Three journalled steps, run by the worker started with the same deployment.
  await expect(page.getByTestId("step-timeline")).toContainText("done");
  await expect(page.getByTestId("claim-card")).toContainText(E2E_WORKER_IDENTITY);
  const result = page
    .locator("section.card")
    .filter({ has: page.locator(".card-header", { hasText: /^Result$/ }) });
  await expect(result).toContainText("Hello, Ada!");

  const fired = await manualEpisodesSince(db, { actorId: GREETER_ACTOR, since });
  expect(fired).toHaveLength(1);
  const { rows } = await db.query<{ executed_by: string; steps: number }>(
    `SELECT e.executed_by, (SELECT count(*)::int FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS steps
       FROM cyclium_episodes e WHERE e.id = $1`,
    [fired[0]?.id],
  );
  expect(rows[0]).toEqual({ executed_by: E2E_WORKER_IDENTITY, steps: 3 });
});

test("input the deployment's actor rejects is refused by the Fire form beside its field, before it is sent", async ({
  page,
}) => {
  // Until issue 14 item 5 the console sent it and the worker failed the episode; the form now
  // checks the expectation's schema (the server checks it again: fire-forms.spec.ts).
  await page.goto("/actors");
  await page.getByTestId(FIRE).click();
  await page.getByTestId(`${FIRE}-input`).fill('{ "steps": 3 }');
  await expect(page.getByTestId(`${FIRE}-field-name-error`)).toContainText("Required");
  await expect(page.getByTestId(`${FIRE}-submit`)).toBeDisabled();
});

test("the deployment's own workflow, fired from the console's triggers page, runs both steps on the worker", async ({
  page,
  db,
}) => {
  const since = new Date(Date.now() - 1_000);
  await page.goto("/triggers");
  const row = page
    .getByTestId("triggers-table")
    .getByRole("row", { name: new RegExp(GREETING_TRIGGER) });
  const fire = row.getByTestId(`trigger-fire-${GREETING_TRIGGER}`);
  // Clicked once the page has hydrated (its live stream is open): a click on the server's HTML
  // before that reaches no handler, and the second click then only asked (a CI run lost one).
  await expect(page.locator(".refresh-control")).toHaveAttribute("data-state", "on");
  await fire.click();
  await expect(fire).toHaveText("Fire now?");
  await fire.click();

  const instance = async () => {
    const { rows } = await db.query<{ id: string; status: string }>(
      `SELECT id, status FROM cyclium_workflow_instances
        WHERE workflow_name = $1 AND inserted_at >= $2 ORDER BY inserted_at`,
      [GREETING_WORKFLOW, since],
    );
    return rows;
  };
  await expect
    .poll(instance, { timeout: 20_000 })
    .toEqual([{ id: expect.any(String) as unknown, status: "done" }]);
  const [done] = await instance();
  await page.goto(`/workflows/${done?.id}`);
  await expect(page.getByTestId("step-hello")).toContainText(
    `${GREETER_ACTOR}/${GREET_EXPECTATION}`,
  );
  await expect(page.getByTestId("step-hello")).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("step-again")).toHaveAttribute("data-status", "done");
});
