import type { Queryable } from "../db/index";

/** Why an orphan failed; the console shows `reason` in its recovery history. */
export type OrphanFailReason = "policy" | "unknown_actor";

/**
 * `fail` policy (and unknown actors): `failed` with `error_class = 'orphaned'`, the recovery
 * appended to `recovery_history`. Only rows this transaction claimed are touched.
 */
const SQL = `
WITH failed AS (
  UPDATE cyclium_episodes AS e
     SET status = 'failed',
         phase = 'recovered',
         error_class = 'orphaned',
         error_message = CASE f.reason
           WHEN 'unknown_actor' THEN 'Orphaned: its node stopped mid-run and no actor or definition was found for it.'
           ELSE 'Orphaned: its node stopped mid-run and its recovery policy is fail.'
         END,
         finished_at = now(),
         lease_until = NULL,
         updated_at = now(),
         recovery_history = e.recovery_history || jsonb_build_array(jsonb_build_object(
           'at', now(),
           'node', $3::text,
           'policy', 'fail',
           'outcome', 'failed',
           'reason', f.reason,
           'attempt', e.attempt
         ))
    FROM unnest($1::uuid[], $2::text[]) AS f(id, reason)
   WHERE e.id = f.id
     AND e.phase = 'recovering'
  RETURNING e.id, e.attempt, e.error_message, e.executed_by
),
-- The attempt's error is kept beside the episode's (a retry clears the episode's): the node
-- that ran it is the one that died (executed_by is left as it was).
attempt_errors AS (
  INSERT INTO cyclium_episode_attempts (episode_id, attempt, outcome, error_class, error_message, node)
  SELECT id, attempt, 'orphaned', 'orphaned', error_message, executed_by FROM failed
  ON CONFLICT (episode_id, attempt) DO NOTHING
)
SELECT id FROM failed`;

export async function failOrphanedEpisodes(
  options: { episodes: readonly { id: string; reason: OrphanFailReason }[]; node: string },
  db: Queryable,
): Promise<string[]> {
  if (options.episodes.length === 0) return [];
  const result = await db.query<{ id: string }>(SQL, [
    options.episodes.map((episode) => episode.id),
    options.episodes.map((episode) => episode.reason),
    options.node,
  ]);
  return result.rows.map((row) => row.id);
}
