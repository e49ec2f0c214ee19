import type { Queryable } from "../db/index";

export interface SetTriggerPausedOptions {
  /** The trigger's id, as `loadTrigger` found it (by its name or its workflow's). */
  triggerId: string;
  paused: boolean;
  by: string | null;
  /** On resume: the next fire time (from now, unless catch-up keeps the stored one). */
  nextFireAt?: Date | null | undefined;
  /** On resume: keep the stored next_fire_at (catchUp: 'latest' with a window pending). */
  keepNextFireAt?: boolean | undefined;
}

/**
 * Pause or resume in the database, so every node's scheduler obeys it: the turn claim re-checks
 * `paused = false`. Pausing a paused trigger keeps who paused it first and when.
 */
export async function setTriggerPaused(
  options: SetTriggerPausedOptions,
  db: Queryable,
): Promise<boolean> {
  const result = await db.query(SQL, [
    options.triggerId,
    options.paused,
    options.by,
    options.nextFireAt ?? null,
    options.keepNextFireAt ?? false,
  ]);
  return (result.rowCount ?? 0) > 0;
}

/** Pause and resume NOTIFY it (payload: the trigger's id), so schedulers re-read at once. */
export const TRIGGERS_CHANNEL = "cyclium_triggers";

const SQL = `
WITH changed AS (
UPDATE cyclium_triggers
   SET paused = $2,
       paused_by = CASE WHEN NOT $2 THEN NULL WHEN paused THEN paused_by ELSE $3 END,
       paused_at = CASE WHEN NOT $2 THEN NULL WHEN paused THEN paused_at ELSE now() END,
       next_fire_at = CASE WHEN $2 OR $5 THEN next_fire_at ELSE $4 END,
       updated_at = now()
 WHERE id = $1
RETURNING id
)
SELECT id, pg_notify('${TRIGGERS_CHANNEL}', id::text) FROM changed`;
