import type { Queryable } from "../db/index";
import { MODES_CHANNEL } from "./mode";

export interface ClearModeOverrideOptions {
  db: Queryable;
  targetNode: string;
  /** Omit (or null) to clear the node-wide override, falling back to '*' or the base mode. */
  actorId?: string | null;
}

/** `cleared`, the override was removed; `not_found`, there was none for that node and actor. */
export type ClearModeOverrideResult = { kind: "cleared" | "not_found" };

/** Deletes one override; notifies `cyclium_modes` only when a row was removed. */
export async function clearModeOverride({
  db,
  targetNode,
  actorId = null,
}: ClearModeOverrideOptions): Promise<ClearModeOverrideResult> {
  const { rows } = await db.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM cyclium_mode_overrides
       WHERE target_node = $1 AND actor_id IS NOT DISTINCT FROM $2::varchar
       RETURNING id
     )
     SELECT count(*)::int AS removed,
            CASE WHEN count(*) > 0 THEN pg_notify($3, $1) END AS notified
     FROM removed`,
    [targetNode, actorId, MODES_CHANNEL],
  );
  return { kind: (rows[0]?.removed ?? 0) > 0 ? "cleared" : "not_found" };
}
