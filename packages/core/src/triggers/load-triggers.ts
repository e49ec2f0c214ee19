import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import { TRIGGER_COLUMNS, type TriggerRow } from "./trigger-row";

const QUALIFIED_COLUMNS = TRIGGER_COLUMNS.split(",")
  .map((column) => `t.${column.trim()}`)
  .join(", ");

/**
 * The scheduler's view of its triggers on every tick, with the database clock: all nodes decide
 * "due" on the same clock, and pause/resume by any node is seen within one tick. The clock row
 * is joined so the time comes back even when no trigger row exists yet.
 */
export async function loadTriggers(
  options: { env: string | null; names: readonly string[] },
  db: Queryable,
): Promise<{ rows: TriggerRow[]; now: Date }> {
  const params = new SqlParams([options.names]);
  const sql = `
SELECT ${QUALIFIED_COLUMNS}, clock.db_now
  FROM (SELECT now() AS db_now) clock
  LEFT JOIN cyclium_triggers t
    ON t.name = ANY($1::text[]) AND ${envScopeSql("t.env", options.env, params)}`;
  const result = await db.query<TriggerRow & { db_now: Date }>(sql, params.values);
  const now = result.rows[0]?.db_now ?? new Date();
  return { rows: result.rows.filter((row) => row.id !== null), now };
}
