import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import type { WorkflowRegistry } from "../workflows/index";
import { parseInput } from "./parse-input";
import { envOfTenant } from "./tenant";
import { ZListTriggersInput, type TListTriggersInput } from "./trigger-inputs";
import type { TriggerRegistry } from "./trigger-registry";
import { toTriggerItem, TRIGGER_COLUMNS, type TriggerItem, type TriggerRow } from "./trigger-row";
import { subscribersOf } from "./subscribers-of";

export interface ListTriggersResult {
  tenant_id: string;
  items: TriggerItem[];
  total: number;
}

/**
 * `GET /v1/tenants/{t}/triggers` (SPEC section 12): one page and the total, in one statement so
 * the two agree. Newest first, as Cloacina lists schedules (`order: "name"` for the console's
 * table). Subscribers are added where the workflows are registered.
 */
export async function listTriggers(
  options: {
    db: Queryable;
    triggers?: TriggerRegistry;
    workflows?: WorkflowRegistry;
    order?: "created_at" | "name";
  } & TListTriggersInput,
): Promise<ListTriggersResult> {
  const input = parseInput(ZListTriggersInput, options);
  const env = envOfTenant(input.tenantId);
  const params = new SqlParams([input.limit, input.offset]);
  const order = options.order === "name" ? "name" : "inserted_at DESC, name";
  const sql = `
WITH scoped AS (
  SELECT ${TRIGGER_COLUMNS} FROM cyclium_triggers WHERE ${envScopeSql("env", env, params)}
)
SELECT (SELECT count(*) FROM scoped)::int AS total, page.*
  FROM (SELECT 1) AS one
  LEFT JOIN (SELECT * FROM scoped ORDER BY ${order} LIMIT $1 OFFSET $2) page ON true`;
  const result = await options.db.query<{ total: number } & TriggerRow>(sql, params.values);
  return {
    tenant_id: input.tenantId,
    total: result.rows[0]?.total ?? 0,
    items: result.rows
      .filter((row) => row.id !== null)
      .map((row) => toTriggerItem(row, subscribersOf(row, options))),
  };
}
