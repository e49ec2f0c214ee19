import { findingColumns } from "./finding-row";

/**
 * The second half of a clear: re-inserts the rows of CTE `gone` (active findings just deleted) as
 * `cleared`, keeping their ids.
 *
 * The unique index (finding_key, status, env) allows one cleared row per key and env, so a key
 * that was cleared before, raised again and now cleared again meets its previous cleared row.
 * That row is replaced by the newer one (ON CONFLICT ... SET id = EXCLUDED.id, ...): the history
 * kept is the latest clear per key and env, and the finding keeps its id through raise -> clear.
 * (The alternative, deleting the old cleared row first, gives the same result with one more
 * statement.) Delete-and-reinsert rather than UPDATE status, because an UPDATE to `cleared` would
 * violate the index before any conflict clause could handle it.
 */
export function moveToClearedSql(): string {
  return `
INSERT INTO cyclium_findings AS f
  (id, finding_key, class, severity, subject, summary, data, status, env, episode_id, actor_id,
   raised_count, expires_at, cleared_at, inserted_at, updated_at)
SELECT id, finding_key, class, severity, subject, summary, data, 'cleared', env, episode_id,
       actor_id, raised_count, expires_at, now(), inserted_at, now()
  FROM gone
ON CONFLICT (finding_key, status, env) DO UPDATE
   SET id = EXCLUDED.id,
       class = EXCLUDED.class,
       severity = EXCLUDED.severity,
       subject = EXCLUDED.subject,
       summary = EXCLUDED.summary,
       data = EXCLUDED.data,
       episode_id = EXCLUDED.episode_id,
       actor_id = EXCLUDED.actor_id,
       raised_count = EXCLUDED.raised_count,
       expires_at = EXCLUDED.expires_at,
       cleared_at = EXCLUDED.cleared_at,
       inserted_at = EXCLUDED.inserted_at,
       updated_at = EXCLUDED.updated_at
RETURNING ${findingColumns("f")}`;
}
