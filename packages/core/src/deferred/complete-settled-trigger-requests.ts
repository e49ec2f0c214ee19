import type { Queryable } from "../db/index";

/**
 * Claimed requests whose episode already reached a final status (e.g. finished by recovery after
 * the dispatching node died, or cancelled from the console) are marked `completed`.
 */
export async function completeSettledTriggerRequests(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests r
        SET status = 'completed', completed_at = now(), updated_at = now()
       FROM cyclium_episodes e
      WHERE r.status = 'claimed' AND e.id = r.episode_id
        AND e.status IN ('completed', 'failed', 'cancelled')`,
  );
  return rowCount ?? 0;
}
