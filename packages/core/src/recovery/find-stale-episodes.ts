import type { Queryable } from "../db/index";
import { scopeSql, SqlParams, type NodeScope } from "../scope/index";
import type { OrphanedEpisode } from "../actors/recovery-policy";
import type { EpisodeRow } from "../episodes/episode-row";

export interface FindStaleEpisodesOptions {
  scope: NodeScope;
  staleAfterMs: number;
  limit: number;
}

type StaleEpisodeRow = Pick<
  EpisodeRow,
  | "id"
  | "actor_id"
  | "expectation_id"
  | "attempt"
  | "dedupe_key"
  | "source_stack"
  | "source_env"
  | "workflow_instance_id"
  | "workflow_step"
>;

/**
 * `running`, unarchived episodes with no sign of life for `staleAfterMs`, on the database clock.
 * Sign of life is the newest step-journal entry or `started_at`, whichever is later: a restarted
 * episode keeps the journal of its earlier attempts, and those old entries must not make its new
 * run look stale before it journals anything. `updated_at` stands in when neither exists.
 * The partial index `cyclium_episodes_running_idx` keeps this to the running rows, and the
 * journal lookup is one index probe per row (`cyclium_episode_steps_pkey`: episode, attempt,
 * step).
 */
export async function findStaleEpisodes(
  options: FindStaleEpisodesOptions,
  db: Queryable,
): Promise<OrphanedEpisode[]> {
  const params = new SqlParams([options.staleAfterMs, options.limit]);
  const scope = scopeSql(options.scope, params, {
    stack: "e.source_stack",
    env: "e.source_env",
  });
  const sql = `
SELECT e.id, e.actor_id, e.expectation_id, e.attempt, e.dedupe_key, e.source_stack,
       e.source_env, e.workflow_instance_id, e.workflow_step
  FROM cyclium_episodes e
  LEFT JOIN LATERAL (
    SELECT max(s.inserted_at) AS last_step_at
      FROM cyclium_episode_steps s
     WHERE s.episode_id = e.id
  ) j ON true
 WHERE e.status = 'running'
   AND e.archived_at IS NULL
   AND ${scope}
   AND COALESCE(GREATEST(j.last_step_at, e.started_at), e.updated_at)
       < now() - make_interval(secs => $1::double precision / 1000)
 LIMIT $2`;
  const result = await db.query<StaleEpisodeRow>(sql, params.values);
  return result.rows.map((row) => ({
    id: row.id,
    actorId: row.actor_id,
    expectationId: row.expectation_id,
    attempt: row.attempt,
    dedupeKey: row.dedupe_key,
    sourceStack: row.source_stack,
    sourceEnv: row.source_env,
    workflowInstanceId: row.workflow_instance_id,
    workflowStep: row.workflow_step,
  }));
}
