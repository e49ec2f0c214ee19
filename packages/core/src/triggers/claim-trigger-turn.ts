import type { Queryable } from "../db/index";

export interface ClaimTriggerTurnOptions {
  triggerId: string;
  /** The `next_fire_at` this node read and found due. */
  due: Date | null;
  /** The `next_fire_at` after this turn. */
  next: Date | null;
  /** The window this turn fires (cron), recorded as `last_fire_at`; null for a skipped one. */
  fired: Date | null;
}

/**
 * The cross-node claim of one due turn of a trigger (a cron window, a poll interval): a single
 * conditional update that moves `next_fire_at` on only if it still holds the value this node saw
 * and the trigger is not paused. Every node's scheduler sees the same due window; exactly one
 * gets a row back and fires it, and a pause committed a moment earlier stops all of them.
 *
 * The comparison is on a value that went through a JavaScript Date, so every `next_fire_at` is
 * written with millisecond precision (computed in JS, or truncated in SQL): a microsecond value
 * from a bare now() would never compare equal again and the trigger would stall.
 */
const SQL = `
UPDATE cyclium_triggers
   SET next_fire_at = $3,
       last_fire_at = COALESCE($4, last_fire_at),
       updated_at = now()
 WHERE id = $1
   AND next_fire_at IS NOT DISTINCT FROM $2
   AND paused = false
RETURNING id`;

export async function claimTriggerTurn(
  options: ClaimTriggerTurnOptions,
  db: Queryable,
): Promise<boolean> {
  const result = await db.query(SQL, [options.triggerId, options.due, options.next, options.fired]);
  return (result.rowCount ?? 0) > 0;
}
