import type { Queryable } from "../db/index";

const SQL = `UPDATE cyclium_triggers SET last_fire_at = $2, updated_at = now() WHERE id = $1`;

/** Records a poll or manual fire as the trigger's last; cron windows record it when claimed. */
export async function markTriggerFired(
  options: { triggerId: string; at: Date },
  db: Queryable,
): Promise<void> {
  await db.query(SQL, [options.triggerId, options.at]);
}
