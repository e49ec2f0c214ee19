import { expect, test } from "./support/fixtures";
import { ensureResource } from "./support/console";

// Issue 32 in the browser: the demo's `raise_limit` episode waits for an operator's approval
// holding no slot; an operator approves it with a comment from its page, the worker resumes and
// completes it, and the audit log shows who approved it. A viewer sees the wait but no button.
const ACTOR = "resource_monitor";
const EXPECTATION = "raise_limit";
const FIRE = `fire-${ACTOR}-${EXPECTATION}`;
const RESOURCE = "e2e-approval";

test.describe("an operator", () => {
  test.use({ role: "operator" });

  test("approves a waiting episode with a comment; it completes and the audit log shows it", async ({
    page,
    db,
  }) => {
    test.setTimeout(60_000);
    await ensureResource(db, RESOURCE);
    await page.goto("/actors");
    await page.getByTestId(FIRE).click();
    await page.getByTestId(`${FIRE}-input`).fill(`{ "resourceId": "${RESOURCE}" }`);
    await page.getByTestId(`${FIRE}-submit`).click();
    await page.getByTestId("fired-episode-link").click();

    await expect(page.getByTestId("episode-status")).toContainText("waiting", { timeout: 20_000 });
    const panel = page.getByTestId("wait-panel");
    await expect(panel.getByTestId("wait-description")).toContainText(
      "Waiting for signal approval since",
    );
    await panel.getByTestId("signal-open-approval").click();
    await page.getByTestId("signal-approval-field-decision").selectOption("approve");
    await page.getByTestId("signal-approval-field-comment").fill("headroom for the launch");
    await page.getByTestId("signal-approval-submit").click();

    await expect(page.getByTestId("episode-status")).toContainText("completed", {
      timeout: 20_000,
    });
    await expect(page.getByTestId("wait-panel")).toHaveCount(0);
    const { rows } = await db.query<{ limit: number }>(
      `SELECT "limit" FROM resources WHERE id = $1`,
      [RESOURCE],
    );
    expect(rows[0]?.limit).toBe(125);

    await page.goto("/audit?action=episodes.signal");
    const audit = page.getByTestId("audit-table");
    await expect(audit).toContainText("episodes.signal");
    await expect(audit).toContainText("operator");
  });
});

test.describe("a viewer", () => {
  test.use({ role: "viewer" });

  test("sees what a waiting episode waits for, and no button to send the signal", async ({
    page,
    db,
  }) => {
    await ensureResource(db, RESOURCE);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, input)
       VALUES ($1, $2, 'waiting', 'manual', $3) RETURNING id`,
      [ACTOR, EXPECTATION, { resourceId: RESOURCE }],
    );
    const id = rows[0]!.id;
    await db.query(
      `INSERT INTO cyclium_episode_waits (episode_id, kind, signal, step_no, attempt, wake_at)
       VALUES ($1, 'signal', 'approval', 1, 1, now() + interval '1 day')`,
      [id],
    );
    await page.goto(`/episodes/${id}`);
    await expect(page.getByTestId("wait-description")).toContainText(
      "Waiting for signal approval since",
    );
    await expect(page.getByTestId("signal-open-approval")).toHaveCount(0);
    await page.goto("/episodes?q=signal:approval");
    await expect(page.locator(`a[href*="${id}"]`).first()).toBeVisible();
  });
});
