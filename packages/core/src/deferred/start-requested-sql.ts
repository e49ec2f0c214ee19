import { episodeColumns, type EpisodeRow } from "../episodes/index";
import type { limitGateSql } from "../limits/index";

/** A started episode with the request its start consumed, as startStatementSql returns it. */
export type StartedRow = EpisodeRow & {
  request_id: string;
  request_opts: unknown;
  request_inserted_at: Date;
};

/**
 * The start of startRequestedEpisodes after `head`, the CTEs that end with `free` (request_id,
 * episode_id, claim_attempt: the requests to consume and the episodes to start); `$1` the node,
 * `$4` the lease seconds. `gate` (limits/) when the batch passed the limit gate.
 */
export function startStatementSql(head: string, gate?: ReturnType<typeof limitGateSql>): string {
  // The batch's rows in one primary-key scan; a row's claim attempt from `free` by a subquery.
  // Joined (`FROM free f WHERE e.id = f.episode_id`), PostgreSQL estimated one row for `free`
  // and ran the id scan once per row of it: 48 x 48 index probes for a batch of 48, 500 x 500
  // for a prefetch of 500 (measured with auto_explain on a drain of analyzed tables).
  return `WITH ${head},
     started AS (
       UPDATE cyclium_episodes e
          SET status = 'running', finished_at = NULL,
              executed_by = $1, queued_by = NULL, queued_at = NULL,
              lease_until = now() + make_interval(secs => $4),
              attempt = GREATEST(e.attempt, COALESCE(
                (SELECT f.claim_attempt + 1 FROM free f WHERE f.episode_id = e.id), 0)),
              updated_at = now(),
              ${gate === undefined ? "started_at = now()" : gate.set("e.id")}
        WHERE e.id = ANY(ARRAY(SELECT episode_id FROM free))
          AND e.status IN ('pending', 'waiting') AND e.archived_at IS NULL
       RETURNING ${episodeColumns("e")}
     ),
     consumed AS (
       DELETE FROM cyclium_trigger_requests r
        WHERE r.id = ANY(ARRAY(SELECT request_id FROM free))
       RETURNING r.id, r.opts, r.inserted_at, r.episode_id
     )${
       gate === undefined
         ? ""
         : `,
     ${gate.writes("started")}`
     }
     SELECT c.id::text AS request_id, c.opts AS request_opts,
            c.inserted_at AS request_inserted_at, s.*
       FROM consumed c JOIN started s ON s.id = c.episode_id`;
}
