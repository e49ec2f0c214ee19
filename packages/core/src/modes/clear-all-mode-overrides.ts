import type { Queryable } from "../db/index";
import { MODES_CHANNEL } from "./mode";

export interface ClearAllModeOverridesOptions {
  db: Queryable;
  targetNode: string;
  /** Also remove the node-wide override. Default false: only per-actor overrides go. */
  includeNodeWide?: boolean;
}

/** Deletes a target's overrides; returns how many. Notifies `cyclium_modes` when any went. */
export async function clearAllModeOverrides({
  db,
  targetNode,
  includeNodeWide = false,
}: ClearAllModeOverridesOptions): Promise<number> {
  const { rows } = await db.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM cyclium_mode_overrides
       WHERE target_node = $1 AND (actor_id IS NOT NULL OR $2::boolean)
       RETURNING id
     )
     SELECT count(*)::int AS removed,
            CASE WHEN count(*) > 0 THEN pg_notify($3, $1) END AS notified
     FROM removed`,
    [targetNode, includeNodeWide, MODES_CHANNEL],
  );
  return rows[0]?.removed ?? 0;
}
