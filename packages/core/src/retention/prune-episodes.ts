import type { Queryable } from "../db/index";

/** What one batch removed: the episodes and, in the same statement, what hung off them. */
export interface PrunedEpisodeBatch {
  episodes: number;
  steps: number;
  checkpoints: number;
  triggerRequests: number;
}

const FINISHED = `status IN ('completed', 'failed', 'cancelled')`;

/**
 * The actors that have finished episodes: a loose index scan over cyclium_episodes_finished_idx
 * (one index probe per actor), so listing them costs the number of actors, not of episodes.
 */
export async function listActorsWithFinishedEpisodes(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ actor_id: string }>(
    `WITH RECURSIVE actors AS (
       (SELECT actor_id FROM cyclium_episodes WHERE ${FINISHED} ORDER BY actor_id LIMIT 1)
       UNION ALL
       SELECT (SELECT e.actor_id FROM cyclium_episodes e
                WHERE e.${FINISHED} AND e.actor_id > a.actor_id
                ORDER BY e.actor_id LIMIT 1)
         FROM actors a WHERE a.actor_id IS NOT NULL
     )
     SELECT actor_id FROM actors WHERE actor_id IS NOT NULL`,
  );
  return rows.map((row) => row.actor_id);
}

/**
 * Deletes up to `limit` of one actor's finished episodes older than `olderThanMs`, oldest first,
 * with their steps, checkpoints and trigger requests, in one statement: it commits whole or not
 * at all, so a pruner killed mid-batch leaves no episode without its journal or the reverse.
 *
 * Kept, whatever their age: episodes of a running or blocked workflow instance (the engine still
 * reads them to advance it), and episodes an active finding points at. Rows another pruner has
 * locked are skipped (SKIP LOCKED), so two pruners never delete the same row twice; FOR UPDATE
 * re-checks the status of a row that changed meanwhile (an operator's retry makes it pending).
 */
export async function pruneFinishedEpisodes(
  options: { actorId: string; olderThanMs: number; limit: number },
  db: Queryable,
): Promise<PrunedEpisodeBatch> {
  const { rows } = await db.query<{
    episodes: number;
    steps: number;
    checkpoints: number;
    requests: number;
  }>(
    `WITH doomed AS (
       SELECT e.id FROM cyclium_episodes e
        WHERE e.actor_id = $1 AND e.${FINISHED}
          AND e.finished_at < now() - make_interval(secs => $2::double precision / 1000)
          AND NOT EXISTS (
            SELECT 1 FROM cyclium_workflow_instances w
             WHERE w.id = e.workflow_instance_id AND w.status IN ('running', 'blocked'))
          AND NOT EXISTS (
            SELECT 1 FROM cyclium_findings f WHERE f.episode_id = e.id AND f.status = 'active')
        ORDER BY e.finished_at
        LIMIT $3
        FOR UPDATE OF e SKIP LOCKED
     ), steps AS (
       DELETE FROM cyclium_episode_steps s USING doomed WHERE s.episode_id = doomed.id
       RETURNING 1
     ), checkpoints AS (
       DELETE FROM cyclium_episode_checkpoints c USING doomed WHERE c.episode_id = doomed.id
       RETURNING 1
     ), requests AS (
       DELETE FROM cyclium_trigger_requests r USING doomed WHERE r.episode_id = doomed.id
       RETURNING 1
     ), episodes AS (
       DELETE FROM cyclium_episodes e USING doomed WHERE e.id = doomed.id
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM episodes)::int AS episodes,
            (SELECT count(*) FROM steps)::int AS steps,
            (SELECT count(*) FROM checkpoints)::int AS checkpoints,
            (SELECT count(*) FROM requests)::int AS requests`,
    [options.actorId, options.olderThanMs, options.limit],
  );
  const row = rows[0];
  return {
    episodes: row?.episodes ?? 0,
    steps: row?.steps ?? 0,
    checkpoints: row?.checkpoints ?? 0,
    triggerRequests: row?.requests ?? 0,
  };
}
