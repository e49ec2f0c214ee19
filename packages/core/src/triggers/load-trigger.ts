import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import { TRIGGER_COLUMNS, type TriggerRow } from "./trigger-row";

/**
 * The trigger `name` names in `env`, or null; with the database clock for callers that plan.
 * `name` is a trigger's name or, as Cloacina's clients may send, its primary workflow's name: a
 * trigger of that name wins, then the oldest trigger of that workflow (several triggers may
 * drive one workflow; a client that must tell them apart names the trigger).
 */
export async function loadTrigger(
  options: { name: string; env: string | null },
  db: Queryable,
): Promise<(TriggerRow & { db_now: Date }) | null> {
  const params = new SqlParams([options.name]);
  const sql = `
SELECT ${TRIGGER_COLUMNS}, now() AS db_now
  FROM cyclium_triggers
 WHERE (name = $1 OR workflow = $1) AND ${envScopeSql("env", options.env, params)}
 ORDER BY name = $1 DESC, inserted_at, name
 LIMIT 1`;
  const result = await db.query<TriggerRow & { db_now: Date }>(sql, params.values);
  return result.rows[0] ?? null;
}
