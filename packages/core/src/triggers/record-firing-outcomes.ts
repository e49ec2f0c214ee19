import type { Queryable } from "../db/index";
import type { FiringOutcome } from "./trigger-firing-row";

/**
 * Stores the fan-out's outcomes. A failed primary closes the firing as failed with its error; a
 * started primary leaves it open until its workflow instance ends (the workflow engine closes it
 * then), so the status is only ever moved here on failure, never back from `completed` should
 * the instance have finished before this write.
 */
const SQL = `
UPDATE cyclium_trigger_firings
   SET outcomes = $2::jsonb,
       status = CASE WHEN $3::text IS NULL THEN status ELSE 'failed' END,
       error_message = COALESCE($3::text, error_message),
       finished_at = CASE WHEN $3::text IS NULL THEN finished_at ELSE now() END
 WHERE id = $1`;

export async function recordFiringOutcomes(
  options: { firingId: string; outcomes: FiringOutcome[]; primaryError: string | null },
  db: Queryable,
): Promise<void> {
  await db.query(SQL, [options.firingId, JSON.stringify(options.outcomes), options.primaryError]);
}
