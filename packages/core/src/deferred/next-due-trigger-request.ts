import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";

export interface NextDueTriggerRequestOptions {
  sourceStack: string | null;
  sourceEnv: string | null;
}

/**
 * In how many ms (by the database clock) the earliest delayed pending request of this scope
 * becomes due; undefined when none waits. A poller arms one timer for it instead of polling hard.
 */
export async function nextDueTriggerRequest(
  options: NextDueTriggerRequestOptions,
  db: Queryable,
): Promise<number | undefined> {
  const params = new SqlParams([]);
  const env = envScopeSql("source_env", options.sourceEnv, params);
  const stack =
    options.sourceStack === null ? "TRUE" : `source_stack = ${params.add(options.sourceStack)}`;
  const { rows } = await db.query<{ in_ms: number | null }>(
    `SELECT (extract(epoch FROM min(run_at) - now()) * 1000)::float8 AS in_ms
       FROM cyclium_trigger_requests
      WHERE status = 'pending' AND run_at > now() AND ${env} AND ${stack}`,
    params.values,
  );
  const inMs = rows[0]?.in_ms;
  return inMs === null || inMs === undefined ? undefined : Math.max(0, inMs);
}
