import type { Queryable } from "../db/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../deferred/trigger-request";

/**
 * `restart` policy: back to `pending` for a fresh run, `attempt + 1`, with the recovery appended
 * to `recovery_history` so the console can show it. `started_at` is cleared so the next run's
 * start, not the dead one's, is what the sweep measures staleness from. Only rows this
 * transaction claimed (`phase = 'recovering'`) are touched.
 *
 * The restarted episode gets its owner in the same statement, so it is never pending without
 * one (docs/queues-and-recovery.md): the sweeping node's queue (`queued_by`), which runs it or
 * hands it on, or, for a sweep with no queue behind it, a trigger request marked `recovered`.
 */
const RESTART = `
UPDATE cyclium_episodes
   SET status = 'pending',
       phase = 'recovered',
       attempt = attempt + 1,
       started_at = NULL,
       executed_by = NULL,
       lease_until = NULL,
       queued_by = $3::varchar,
       queued_at = CASE WHEN $3::varchar IS NOT NULL THEN now() END,
       updated_at = now(),
       recovery_history = recovery_history || jsonb_build_array(jsonb_build_object(
         'at', now(),
         'node', $2::text,
         'policy', 'restart',
         'outcome', 'restarted',
         'attempt', attempt + 1
       ))
 WHERE id = ANY($1::uuid[])
   AND phase = 'recovering'
RETURNING id, actor_id, expectation_id, source_stack, source_env`;

// Read before the restart changes them: the attempt that died and the node it died on.
const SQL = `
WITH orphaned AS (
  SELECT id, attempt, executed_by FROM cyclium_episodes
   WHERE id = ANY($1::uuid[]) AND phase = 'recovering'
),
restarted AS (${RESTART}),
attempt_errors AS (
  INSERT INTO cyclium_episode_attempts (episode_id, attempt, outcome, error_class, error_message, node)
  SELECT o.id, o.attempt, 'orphaned', 'orphaned',
         'Orphaned: its node stopped mid-run; recovery (policy restart, node ' || $2::text ||
           ') ran it again as attempt ' || (o.attempt + 1) || '.',
         o.executed_by
    FROM orphaned o JOIN restarted r ON r.id = o.id
  ON CONFLICT (episode_id, attempt) DO NOTHING
),
requested AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts)
  SELECT r.id, r.actor_id, r.expectation_id, $2, r.source_stack, r.source_env, 'pending',
         '{"recovered":true}'::jsonb
    FROM restarted r
   WHERE $3::varchar IS NULL
  RETURNING id
)
SELECT r.id,
       (SELECT CASE WHEN count(*) > 0 THEN pg_notify($4, '{}') END FROM requested) AS notified
  FROM restarted r`;

export async function restartRecoveredEpisodes(
  options: { episodeIds: readonly string[]; node: string; queueOwner: string | null },
  db: Queryable,
): Promise<string[]> {
  if (options.episodeIds.length === 0) return [];
  const result = await db.query<{ id: string }>(SQL, [
    options.episodeIds,
    options.node,
    options.queueOwner,
    TRIGGER_REQUESTS_CHANNEL,
  ]);
  return result.rows.map((row) => row.id);
}
