import type { Queryable } from "../db/index";

/**
 * `restart` policy: back to `pending` for a fresh run, `attempt + 1`, with the recovery appended
 * to `recovery_history` so the console can show it. `started_at` is cleared so the next run's
 * start, not the dead one's, is what the sweep measures staleness from. Only rows this
 * transaction claimed (`phase = 'recovering'`) are touched.
 */
const SQL = `
UPDATE cyclium_episodes
   SET status = 'pending',
       phase = 'recovered',
       attempt = attempt + 1,
       started_at = NULL,
       executed_by = NULL,
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
RETURNING id`;

export async function restartRecoveredEpisodes(
  options: { episodeIds: readonly string[]; node: string },
  db: Queryable,
): Promise<string[]> {
  if (options.episodeIds.length === 0) return [];
  const result = await db.query<{ id: string }>(SQL, [options.episodeIds, options.node]);
  return result.rows.map((row) => row.id);
}
