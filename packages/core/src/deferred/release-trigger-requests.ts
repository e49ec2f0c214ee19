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

/**
 * Puts requests back to `pending` whose episodes a cluster-wide limit refused (SPEC section 16),
 * keeping each refusal in `limit_wait`: the pick skips them while that limit is full. Wakes no
 * poller: the end of a limited episode (or a rate limit's `until`) does, so nothing spins.
 */
export async function releaseLimitedTriggerRequests(
  options: { requests: readonly { id: string; wait: unknown }[]; node: string },
  db: Queryable,
): Promise<number> {
  if (options.requests.length === 0) return 0;
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests r
        SET status = 'pending', claimed_by = NULL, claimed_at = NULL, updated_at = now(),
            limit_wait = w.wait
       FROM unnest($1::bigint[], $2::jsonb[]) AS w(id, wait)
      WHERE r.id = ANY($1::bigint[]) AND r.id = w.id AND r.status = 'claimed'
        AND r.claimed_by = $3`,
    [
      options.requests.map((request) => request.id),
      options.requests.map((request) => JSON.stringify(request.wait)),
      options.node,
    ],
  );
  return rowCount ?? 0;
}

/**
 * Requests this node claimed that no dispatch of this process holds, whose episode never started:
 * put back to `pending`. They are what a database restart leaves behind on a live node: a claim
 * statement that committed with its reply lost, or a release that failed after a dispatch did not
 * run. The node is alive, so the release of gone nodes' requests never touches them, and without
 * this they stayed `claimed` for good (found by the fault suite's database-restart scenario).
 * Requests claimed within `minClaimAgeMs` are left alone: the claim that took them may still be
 * on its way back.
 */
export async function releaseStrandedTriggerRequests(
  options: { node: string; held: readonly string[]; minClaimAgeMs: number },
  db: Queryable,
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests r
        SET status = 'pending', claimed_by = NULL, claimed_at = NULL, updated_at = now()
      WHERE r.status = 'claimed' AND r.claimed_by = $1
        AND NOT (r.id = ANY($2::bigint[]))
        AND r.claimed_at < now() - make_interval(secs => $3::double precision / 1000)
        AND EXISTS (SELECT 1 FROM cyclium_episodes e
                     WHERE e.id = r.episode_id AND e.status IN ('pending', 'waiting'))`,
    [options.node, options.held, options.minClaimAgeMs],
  );
  return rowCount ?? 0;
}
