import type { Queryable } from "../db/index";
import { scopeSql, SqlParams, type NodeScope } from "../scope/index";
import type { TerminalEpisodeStatus } from "../episodes/episode-events";

export interface FinishedWorkflowStep {
  instanceId: string;
  step: string;
  episodeId: string;
  actorId: string;
  expectationId: string;
  status: TerminalEpisodeStatus;
  errorClass: string | null;
  errorMessage: string | null;
  sourceEnv: string | null;
}

interface Row {
  instance_id: string;
  step: string;
  episode_id: string;
  actor_id: string;
  expectation_id: string;
  status: TerminalEpisodeStatus;
  error_class: string | null;
  error_message: string | null;
  source_env: string | null;
}

/**
 * Steps marked `running` in `running`/`blocked` instances of this scope whose episode already
 * ended: the events the engine missed. The step's episode is the one it recorded, or, when the
 * engine never got to record it, the newest episode stamped with the instance and step.
 */
export async function findFinishedWorkflowSteps(
  options: { scope: NodeScope; limit: number },
  db: Queryable,
): Promise<FinishedWorkflowStep[]> {
  const params = new SqlParams([options.limit]);
  const scope = scopeSql(options.scope, params, {
    stack: "w.source_stack",
    env: "w.source_env",
  });
  const sql = `
SELECT w.id AS instance_id, s.key AS step, e.id AS episode_id, e.actor_id, e.expectation_id,
       e.status, e.error_class, e.error_message, e.source_env
  FROM cyclium_workflow_instances w
 CROSS JOIN LATERAL jsonb_each(w.step_states) AS s(key, value)
 CROSS JOIN LATERAL (
   SELECT id, actor_id, expectation_id, status, error_class, error_message, source_env
     FROM cyclium_episodes
    WHERE workflow_instance_id = w.id
      AND workflow_step = s.key
    ORDER BY COALESCE(id::text = s.value->>'episodeId', false) DESC, inserted_at DESC
    LIMIT 1
 ) e
 WHERE w.status IN ('running', 'blocked')
   AND ${scope}
   AND s.value->>'status' = 'running'
   AND e.status IN ('completed', 'failed', 'cancelled')
 LIMIT $1`;
  const result = await db.query<Row>(sql, params.values);
  return result.rows.map((row) => ({
    instanceId: row.instance_id,
    step: row.step,
    episodeId: row.episode_id,
    actorId: row.actor_id,
    expectationId: row.expectation_id,
    status: row.status,
    errorClass: row.error_class,
    errorMessage: row.error_message,
    sourceEnv: row.source_env,
  }));
}
