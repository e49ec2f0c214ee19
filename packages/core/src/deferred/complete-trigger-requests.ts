import type { Queryable } from "../db/index";

/**
 * Marks requests whose episodes finished on this node `completed`. Guarded by `claimed_by` so a
 * node never completes a request that was released and re-dispatched elsewhere meanwhile.
 */
export async function completeTriggerRequests(
  options: { ids: readonly string[]; node: string },
  db: Queryable,
): Promise<number> {
  if (options.ids.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests
        SET status = 'completed', completed_at = now(), updated_at = now()
      WHERE id = ANY($1::bigint[]) AND status = 'claimed' AND claimed_by = $2`,
    [options.ids, options.node],
  );
  return rowCount ?? 0;
}
