import type { Queryable } from "../db/index";
import { scopeSql, SqlParams, type NodeScope } from "../scope/index";

export interface UnstartedWorkflowStep {
  instanceId: string;
  step: string;
  attempt: number;
}

/**
 * Steps marked `running` in live instances of this scope that have no episode for their
 * attempt: the engine that applied the transition committed it and stopped (killed, deployed)
 * before it fired the step. Only instances untouched for `olderThanMs` (database clock), so a
 * start still in flight on a live node is left to it; a second start would dedupe anyway.
 * An episode is the step's attempt when its dedupe key ends with the attempt's idempotency key
 * (`workflow:{instance}:{step}:{attempt}`, see stepIdempotencyKey), or carries it before the
 * `@{env}` suffix.
 */
export async function findUnstartedWorkflowSteps(
  options: { scope: NodeScope; olderThanMs: number; limit: number },
  db: Queryable,
): Promise<UnstartedWorkflowStep[]> {
  const params = new SqlParams([options.limit, options.olderThanMs]);
  const scope = scopeSql(options.scope, params, { stack: "w.source_stack", env: "w.source_env" });
  const sql = `
SELECT w.id AS instance_id, s.key AS step, (s.value->>'attempt')::int AS attempt
  FROM cyclium_workflow_instances w
 CROSS JOIN LATERAL jsonb_each(w.step_states) AS s(key, value)
 CROSS JOIN LATERAL (
   SELECT ':workflow:' || w.id || ':' || s.key || ':' || (s.value->>'attempt') AS key
 ) k
 WHERE w.status IN ('running', 'blocked')
   AND ${scope}
   AND w.updated_at <= now() - make_interval(secs => $2::float8 / 1000)
   AND s.value->>'status' = 'running'
   AND s.value->>'episodeId' IS NULL
   AND NOT EXISTS (
     SELECT 1 FROM cyclium_episodes e
      WHERE e.workflow_instance_id = w.id
        AND e.workflow_step = s.key
        AND (right(e.dedupe_key, length(k.key)) = k.key
             OR strpos(e.dedupe_key, k.key || '@') > 0)
   )
 LIMIT $1`;
  const result = await db.query<{ instance_id: string; step: string; attempt: number }>(
    sql,
    params.values,
  );
  return result.rows.map((row) => ({
    instanceId: row.instance_id,
    step: row.step,
    attempt: row.attempt,
  }));
}
