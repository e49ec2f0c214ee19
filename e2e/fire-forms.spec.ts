// Fire forms from schemas (issue 14 item 5): for every expectation of the demo's deployment, the
// Fire form opens with a valid default built from its input schema and fires it as is, and an
// invalid value is refused beside its field before anything is sent. The expectations and their
// schemas are read from the demo itself, so a new demo expectation is covered without editing
// this file.
import { describeInputSchemas, type ExpectationInputSchema } from "@cyclium/core/console";
import demo from "@cyclium/demo";
import type { Page } from "@playwright/test";
import type pg from "pg";
import path from "node:path";
import { ensureResource } from "./support/console";
import { screenshotsDir } from "./support/paths";
import { expect, test } from "./support/fixtures";

test.use({ role: "operator" });

const expectations = describeInputSchemas(demo.actors);

/** The first field of the schema with a rule a value can break, and a value that breaks it. */
function invalidValueFor(schema: ExpectationInputSchema): { field: string; text: string } {
  const properties = (schema.jsonSchema?.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  for (const [field, property] of Object.entries(properties)) {
    if (property.type === "string" && typeof property.minLength === "number") {
      return { field, text: "" };
    }
    if (typeof property.maximum === "number" && Math.abs(property.maximum) < 1e15) {
      return { field, text: String(property.maximum + 1) };
    }
    if (property.type === "integer") return { field, text: "1.5" };
    if (property.type === "number") return { field, text: "not a number" };
  }
  throw new Error(`${schema.actorId}/${schema.expectationId}: no field a value can break`);
}

function inputSchemaOf(actorId: string, expectationId: string) {
  const actor = demo.actors.find((candidate) => candidate.identifier === actorId);
  const input = actor?.expectations.find((e) => e.id === expectationId)?.input;
  if (input === undefined) throw new Error(`${actorId}/${expectationId} declares no input schema`);
  return input;
}

async function storedInput(db: pg.Pool, episodeId: string): Promise<unknown> {
  const { rows } = await db.query<{ input: unknown }>(
    "SELECT input FROM cyclium_episodes WHERE id = $1",
    [episodeId],
  );
  return rows[0]?.input;
}

async function openForm(page: Page, fire: string) {
  await page.goto("/actors");
  await page.getByTestId(fire).click();
  await expect(page.getByTestId(`${fire}-form`)).toBeVisible();
}

test("every demo expectation declares an input schema the form can show as fields", () => {
  expect(expectations.length).toBeGreaterThanOrEqual(2);
  for (const schema of expectations) {
    expect(schema.jsonSchema, `${schema.actorId}/${schema.expectationId}`).not.toBeNull();
  }
});

for (const schema of expectations) {
  const { actorId, expectationId } = schema;
  const fire = `fire-${actorId}-${expectationId}`;

  test(`${actorId}/${expectationId}: the form fires its default and refuses an invalid value beside its field`, async ({
    page,
    db,
  }) => {
    test.setTimeout(60_000);
    await ensureResource(db, "db-primary");
    const zodSchema = inputSchemaOf(actorId, expectationId);
    // The example passes the expectation's own zod schema: the default is a valid input.
    expect(zodSchema.safeParse(schema.example).success).toBe(true);

    await openForm(page, fire);
    await expect(page.getByTestId(`${fire}-fields`)).toBeVisible();
    await expect(page.getByTestId(`${fire}-submit`)).toBeEnabled();
    await page.getByTestId(`${fire}-submit`).click();
    const link = page.getByTestId("fired-episode-link");
    await expect(link).toBeVisible();
    const episodeId = (await link.getAttribute("href"))?.split("/").pop() ?? "";
    // What the episode stores is the schema's parse of the default (defaults applied).
    expect(await storedInput(db, episodeId)).toEqual(zodSchema.parse(schema.example));

    await page.getByTestId(fire).click();
    const invalid = invalidValueFor(schema);
    const field = page.getByTestId(`${fire}-field-${invalid.field}`);
    await field.fill(invalid.text);
    const error = page.getByTestId(`${fire}-field-${invalid.field}-error`);
    await expect(error).toBeVisible();
    await expect(error).not.toBeEmpty();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByTestId(`${fire}-submit`)).toBeDisabled();
    await page
      .getByTestId(`${fire}-form`)
      .screenshot({ path: path.join(screenshotsDir, `fire-form-invalid-${actorId}.png`) });
    // The raw JSON follows the fields: it holds the refused value too.
    const raw = page.getByTestId(`${fire}-input`);
    if (invalid.text === "") {
      await expect(raw).toContainText(`"${invalid.field}": ""`);
    } else {
      await expect(raw).toContainText(invalid.field);
    }
  });
}

test("a stale tab's invalid input is refused by the server with the field named", async ({
  request,
  baseURL,
}) => {
  // What a form that skipped the check would send: the server checks the zod schema again.
  const [schema] = expectations;
  if (schema === undefined) throw new Error("no demo expectation");
  const invalid = invalidValueFor(schema);
  const asNumber = Number(invalid.text);
  const value = invalid.text === "" || Number.isNaN(asNumber) ? invalid.text : asNumber;
  const response = await request.post("/api/trpc/actors.fire", {
    headers: { origin: baseURL ?? "", "content-type": "application/json" },
    data: {
      actorId: schema.actorId,
      expectationId: schema.expectationId,
      idempotencyKey: `stale-tab-${Date.now()}`,
      input: { ...(schema.example as Record<string, unknown>), [invalid.field]: value },
    },
  });
  expect(response.status()).toBe(400);
  const body = (await response.json()) as {
    error?: { data?: { inputIssues?: { path: string; message: string }[] } };
  };
  expect(body.error?.data?.inputIssues?.map((issue) => issue.path)).toEqual([invalid.field]);
});

test("an operator schedules a fire an hour ahead at priority 8; it waits, marked scheduled", async ({
  page,
  db,
}) => {
  await ensureResource(db, "db-primary");
  const fire = "fire-resource_monitor-check_resource_limits";
  await openForm(page, fire);
  await page.getByTestId(`${fire}-when`).selectOption("delay");
  await page.getByTestId(`${fire}-delay`).fill("60");
  await page.getByTestId(`${fire}-priority`).fill("8");
  await expect(page.getByTestId(`${fire}-submit`)).toHaveText("Schedule");
  await page
    .getByTestId(`${fire}-form`)
    .screenshot({ path: path.join(screenshotsDir, "fire-form-schedule.png") });
  await page.getByTestId(`${fire}-submit`).click();
  const link = page.getByTestId("fired-episode-link");
  await expect(link).toBeVisible();
  const episodeId = (await link.getAttribute("href"))?.split("/").pop() ?? "";
  const { rows } = await db.query<{ status: string; priority: number; ahead_s: number }>(
    `SELECT e.status, r.priority,
            round(extract(epoch FROM r.run_at - r.inserted_at))::int AS ahead_s
       FROM cyclium_episodes e JOIN cyclium_trigger_requests r ON r.episode_id = e.id
      WHERE e.id = $1`,
    [episodeId],
  );
  expect(rows).toEqual([{ status: "pending", priority: 8, ahead_s: 3600 }]);
  await link.click();
  await expect(page.getByText(/Scheduled: no node takes it before/)).toBeVisible();
  // Nothing is left waiting for the specs that follow.
  await db.query("DELETE FROM cyclium_episodes WHERE id = $1", [episodeId]);
});
