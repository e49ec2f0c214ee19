import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import { TRIGGER_COLUMNS, type TriggerRow } from "./trigger-row";

/** The trigger of `name` in `env`, or null; with the database clock for callers that plan. */
export async function loadTrigger(
  options: { name: string; env: string | null },
  db: Queryable,
): Promise<(TriggerRow & { db_now: Date }) | null> {
  const params = new SqlParams([options.name]);
  const sql = `
SELECT ${TRIGGER_COLUMNS}, now() AS db_now
  FROM cyclium_triggers
 WHERE name = $1 AND ${envScopeSql("env", options.env, params)}`;
  const result = await db.query<TriggerRow & { db_now: Date }>(sql, params.values);
  return result.rows[0] ?? null;
}
