import type { Queryable } from "../db/index";
import { scopeSql, SqlParams, type NodeScope } from "../scope/index";

/**
 * Live instances of this scope with a `retrying` step whose backoff has passed. The engine keeps
 * a timer for each retry it schedules; this finds the ones whose timer died with its node.
 */
export async function findDueWorkflowRetries(
  options: { scope: NodeScope; limit: number },
  db: Queryable,
): Promise<string[]> {
  const params = new SqlParams([options.limit]);
  const sql = `
SELECT w.id
  FROM cyclium_workflow_instances w
 WHERE w.status IN ('running', 'blocked')
   AND ${scopeSql(options.scope, params)}
   AND EXISTS (
     SELECT 1 FROM jsonb_each(w.step_states) AS s(key, value)
      WHERE s.value->>'status' = 'retrying'
        AND (s.value->>'retryAt')::timestamptz <= now()
   )
 LIMIT $1`;
  const result = await db.query<{ id: string }>(sql, params.values);
  return result.rows.map((row) => row.id);
}
