import type { Queryable } from "../db/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "../episodes/index";
import { envScopeSql, SqlParams } from "../scope/index";

export interface ExpireTriggerRequestsOptions {
  /** Pending requests due longer ago than this are expired (a delayed one counts from its run_at). */
  ttlMs: number;
  sourceStack: string | null;
  sourceEnv: string | null;
  /** At most this many per call, so one sweep never holds many row locks. */
  limit: number;
}

export interface ExpireTriggerRequestsResult {
  expired: number;
  /** Episodes failed with `error_class = 'expired'` (those still pending). */
  failedEpisodes: Episode[];
}

/**
 * Expires pending requests past the TTL and fails their episodes with `error_class = 'expired'`
 * in one statement, so a request is never expired without its episode (or the reverse).
 * SKIP LOCKED: a request a poller is claiming right now is not expired under it.
 */
export async function expireTriggerRequests(
  options: ExpireTriggerRequestsOptions,
  db: Queryable,
): Promise<ExpireTriggerRequestsResult> {
  const params = new SqlParams([options.ttlMs, options.limit]);
  const env = envScopeSql("source_env", options.sourceEnv, params);
  const stack =
    options.sourceStack === null ? "TRUE" : `source_stack = ${params.add(options.sourceStack)}`;
  const message = params.add(
    `The deferred trigger request was due for longer than ${Math.round(options.ttlMs / 1000)} s without a full-mode node.`,
  );
  const { rows } = await db.query<EpisodeRow & { expired_count: string }>(
    `WITH candidates AS MATERIALIZED (
       SELECT id FROM cyclium_trigger_requests
        WHERE status = 'pending' AND run_at < now() - make_interval(secs => $1 / 1000.0)
          AND ${env} AND ${stack}
        ORDER BY run_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED
     ),
     expired AS (
       UPDATE cyclium_trigger_requests r
          SET status = 'expired', updated_at = now()
         FROM candidates c
        WHERE r.id = c.id
       RETURNING r.episode_id
     ),
     failed AS (
       UPDATE cyclium_episodes e
          SET status = 'failed', error_class = 'expired', error_message = ${message},
              finished_at = now(), updated_at = now()
         FROM expired x
        WHERE e.id = x.episode_id AND e.status IN ('pending', 'waiting')
       RETURNING ${episodeColumns("e")}
     )
     SELECT (SELECT count(*) FROM expired)::text AS expired_count, failed.*
       FROM (SELECT 1) AS one LEFT JOIN failed ON true`,
    params.values,
  );
  const expired = Number(rows[0]?.expired_count ?? 0);
  const failedEpisodes = rows.filter((row) => row.id !== null).map((row) => toEpisode(row));
  return { expired, failedEpisodes };
}
