import type { Queryable } from "../db/index";
import { FIRING_COLUMNS, type TriggerFiringRow } from "./trigger-firing-row";

const SQL = `
SELECT ${FIRING_COLUMNS}
  FROM cyclium_trigger_firings
 WHERE trigger_id = $1
 ORDER BY inserted_at DESC, id DESC
 LIMIT $2`;

/** A trigger's newest firings first (index `cyclium_trigger_firings_trigger_id_inserted_at_idx`). */
export async function listTriggerFirings(
  options: { triggerId: string; limit: number },
  db: Queryable,
): Promise<TriggerFiringRow[]> {
  const result = await db.query<TriggerFiringRow>(SQL, [options.triggerId, options.limit]);
  return result.rows;
}
