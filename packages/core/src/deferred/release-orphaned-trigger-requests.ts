import type { Queryable } from "../db/index";

export interface ReleaseOrphanedTriggerRequestsOptions {
  /** A node counts as gone when it is stopped or has not beaten for this long. */
  nodeSilenceMs: number;
  /** Requests claimed more recently than this are left alone (their node may not have beaten yet). */
  minClaimAgeMs: number;
}

/**
 * Requests claimed by a node that is gone while their episode never started are put back to
 * `pending` for another node. A claimer that died before starting the episode would otherwise
 * strand it: recovery only sweeps `running` episodes. A claimer that is merely slow still holds
 * the episode's work claim when it finally runs it, so a re-dispatch cannot run it twice.
 *
 * "Gone" includes a claimer whose identity is alive again in a newer process: with a static
 * CYCLIUM_NODE_IDENTITY a killed worker comes back under the same name within seconds, beats,
 * and would otherwise keep its dead predecessor's requests claimed forever (found by the fault
 * suite's kill -9 scenario). Registration resets `started_at`, so a claim older than the
 * claimer's current start was made by a process that no longer exists.
 */
export async function releaseOrphanedTriggerRequests(
  options: ReleaseOrphanedTriggerRequestsOptions,
  db: Queryable,
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests r
        SET status = 'pending', claimed_by = NULL, claimed_at = NULL, updated_at = now()
      WHERE r.status = 'claimed'
        AND r.claimed_at < now() - make_interval(secs => $2 / 1000.0)
        AND EXISTS (SELECT 1 FROM cyclium_episodes e
                     WHERE e.id = r.episode_id AND e.status IN ('pending', 'waiting'))
        AND NOT EXISTS (SELECT 1 FROM cyclium_nodes n
                         WHERE n.identity = r.claimed_by AND n.status = 'running'
                           AND n.started_at <= r.claimed_at
                           AND n.last_seen_at > now() - make_interval(secs => $1 / 1000.0))`,
    [options.nodeSilenceMs, options.minClaimAgeMs],
  );
  return rowCount ?? 0;
}
