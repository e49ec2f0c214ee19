import type { Queryable } from "../db/index";
import { MODES_CHANNEL } from "./mode";

export interface ClearConcurrencyOverrideOptions {
  db: Queryable;
  targetNode: string;
  actorId: string;
}

/** `cleared`, the actor is back to its definition's limit there (or '*'); `not_found`, no row. */
export type ClearConcurrencyOverrideResult = { kind: "cleared" | "not_found" };

/** Deletes one limit override; notifies `cyclium_modes` only when a row was removed. */
export async function clearConcurrencyOverride({
  db,
  targetNode,
  actorId,
}: ClearConcurrencyOverrideOptions): Promise<ClearConcurrencyOverrideResult> {
  const { rows } = await db.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM cyclium_concurrency_overrides
       WHERE target_node = $1 AND actor_id = $2
       RETURNING id
     )
     SELECT count(*)::int AS removed,
            CASE WHEN count(*) > 0 THEN pg_notify($3, $1) END AS notified
     FROM removed`,
    [targetNode, actorId, MODES_CHANNEL],
  );
  return { kind: (rows[0]?.removed ?? 0) > 0 ? "cleared" : "not_found" };
}
