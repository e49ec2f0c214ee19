import type { Queryable } from "../db/index";

/**
 * Puts requests this node claimed but never started back to `pending` (graceful shutdown, or an
 * actor that disappeared before dispatch), so another full node picks them up.
 */
export async function releaseTriggerRequests(
  options: { ids: readonly string[]; node: string },
  db: Queryable,
): Promise<number> {
  if (options.ids.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests
        SET status = 'pending', claimed_by = NULL, claimed_at = NULL, updated_at = now()
      WHERE id = ANY($1::bigint[]) AND status = 'claimed' AND claimed_by = $2`,
    [options.ids, options.node],
  );
  return rowCount ?? 0;
}
