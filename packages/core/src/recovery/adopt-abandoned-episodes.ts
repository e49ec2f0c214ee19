import type { Queryable } from "../db/index";
import { scopeSql, SqlParams, type NodeScope } from "../scope/index";

/** A node silent this long (three missed 5 s heartbeats) no longer holds its queue. */
export const DEFAULT_NODE_SILENCE_MS = 15_000;

export interface AdoptAbandonedEpisodesOptions {
  /** The adopting node: the new owner. */
  node: string;
  scope: NodeScope;
  /** See DEFAULT_NODE_SILENCE_MS. */
  nodeSilenceMs: number;
  /** At most this many rows per call; the next reconcile takes the rest. */
  limit: number;
}

/**
 * Pending episodes whose owning queue is gone are re-owned by this node, one statement, exactly
 * once across the cluster (row locks with SKIP LOCKED, and the owner is re-checked on the locked
 * row). An owner is gone when its node row is stopped, silent for `nodeSilenceMs`, missing, or
 * was registered again after it queued the episode (the identity restarted: the process that
 * held the queue in memory no longer exists). A pending episode never ran, so there is no policy
 * to choose: it is requeued, and the adoption is appended to `recovery_history` with the old
 * owner so the console can show where it came from.
 *
 * The caller's queue then runs the episodes it may run and defers the rest as trigger requests.
 */
export async function adoptAbandonedEpisodes(
  options: AdoptAbandonedEpisodesOptions,
  db: Queryable,
): Promise<number> {
  const params = new SqlParams([options.node, options.nodeSilenceMs, options.limit]);
  const scope = scopeSql(options.scope, params, { stack: "c.source_stack", env: "c.source_env" });
  const { rowCount } = await db.query(
    `UPDATE cyclium_episodes e
        SET queued_by = $1, queued_at = now(), updated_at = now(),
            recovery_history = e.recovery_history || jsonb_build_array(jsonb_build_object(
              'at', now(), 'node', $1::text, 'policy', 'requeue', 'outcome', 'adopted',
              'from', e.queued_by, 'attempt', e.attempt))
      WHERE e.id IN (
              SELECT c.id FROM cyclium_episodes c
               WHERE c.status = 'pending' AND c.queued_by IS NOT NULL AND c.queued_by <> $1
                 AND c.archived_at IS NULL
                 AND ${scope}
                 AND NOT EXISTS (
                   SELECT 1 FROM cyclium_nodes n
                    WHERE n.identity = c.queued_by AND n.status = 'running'
                      AND n.started_at <= c.queued_at
                      AND n.last_seen_at > now() - make_interval(secs => $2::double precision / 1000))
               ORDER BY c.inserted_at, c.id
               LIMIT $3
               FOR UPDATE SKIP LOCKED)
        AND e.status = 'pending' AND e.queued_by IS NOT NULL AND e.queued_by <> $1`,
    params.values,
  );
  return rowCount ?? 0;
}
