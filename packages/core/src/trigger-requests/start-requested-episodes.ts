import { claimKeyOf, type ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "../episodes/index";
import { pickDueRequests } from "./pick-due-requests";
import type { ClaimTriggerRequestsOptions } from "./claim-trigger-requests";
import { ZTriggerRequestOpts, type TTriggerRequestOpts } from "./trigger-request";

export interface StartRequestedEpisodesOptions extends ClaimTriggerRequestsOptions {
  /** The lease the started episodes hold in their rows (database clock). */
  leaseSeconds: number;
}

export interface StartedRequestedEpisode {
  /** The request, already `completed` (claimed_by this node). */
  requestId: string;
  opts: TTriggerRequestOpts;
  insertedAt: Date;
  /** Running, executed by this node under its own lease. */
  episode: Episode;
  /** The episode's lease: every write of the run presents it (fenced on the row's attempt). */
  fence: ClaimFence;
}

/**
 * The episode's own lease (SPEC section 4), started from its trigger request: one statement picks
 * due pending requests in claim order (per actor at most its free slots, FOR UPDATE SKIP LOCKED,
 * higher claim priority first, then by run_at, as claimTriggerRequests), marks each `completed` with `claimed_by` recorded, and starts its
 * episode under a lease held in its row (`executed_by`, `lease_until`, `attempt`). No claim row
 * is written and the request is written once: compare-lease-models measured 4,714 -> 3,163 WAL
 * bytes, 50 -> 34 index entries and 0.31 -> 0.12 ms of PostgreSQL CPU per drained item.
 *
 * - A request whose episode is no longer pending (cancelled, archived) is completed: nothing is
 *   left to run.
 * - A rolling upgrade leaves claim rows of the previous release's nodes: an episode whose key has
 *   a `claimed` claim row (live or lapsed) is left alone and so is its request (still pending);
 *   recovery's claim gate settles a lapsed one.
 * - The attempt is the row's, raised past the attempt of any claim row of the key: a run of the
 *   previous release journaled its steps under its claim's attempt, and a new run must not
 *   journal under the same (episode, attempt) (its steps would be dropped as duplicates).
 *
 * Returns only the started episodes, oldest request first.
 */
export async function startRequestedEpisodes(
  options: StartRequestedEpisodesOptions,
  db: Queryable,
): Promise<StartedRequestedEpisode[]> {
  const pick = pickDueRequests(options, ["id", "episode_id"], [options.leaseSeconds]);
  if (pick === undefined) return [];
  const { rows } = await db.query<
    EpisodeRow & {
      request_id: string;
      request_opts: unknown;
      request_inserted_at: Date;
    }
  >(
    `WITH ${pick.cte},
     keyed AS MATERIALIZED (
       SELECT p.id AS request_id, p.episode_id, w.state AS claim_state, w.attempt AS claim_attempt
         FROM picked p
         JOIN cyclium_episodes e ON e.id = p.episode_id
         LEFT JOIN cyclium_work_claims w
           ON w.dedupe_key = COALESCE(e.dedupe_key, 'episode:' || e.id::text)
        WHERE e.id = ANY(ARRAY(SELECT episode_id FROM picked))
     ),
     free AS MATERIALIZED (
       SELECT * FROM keyed WHERE claim_state IS DISTINCT FROM 'claimed'
     ),
     started AS (
       UPDATE cyclium_episodes e
          SET status = 'running', started_at = now(), finished_at = NULL,
              executed_by = $1, queued_by = NULL, queued_at = NULL,
              lease_until = now() + make_interval(secs => $4),
              attempt = GREATEST(e.attempt, COALESCE(f.claim_attempt + 1, 0)),
              updated_at = now()
         FROM free f
        WHERE e.id = ANY(ARRAY(SELECT episode_id FROM free)) AND e.id = f.episode_id
          AND e.status IN ('pending', 'waiting') AND e.archived_at IS NULL
       RETURNING ${episodeColumns("e")}
     ),
     completed AS (
       UPDATE cyclium_trigger_requests r
          SET status = 'completed', claimed_by = $1, claimed_at = now(), completed_at = now(),
              updated_at = now()
        WHERE r.id = ANY(ARRAY(SELECT request_id FROM free))
       RETURNING r.id, r.opts, r.inserted_at, r.episode_id
     )
     SELECT c.id::text AS request_id, c.opts AS request_opts,
            c.inserted_at AS request_inserted_at, s.*
       FROM completed c JOIN started s ON s.id = c.episode_id`,
    pick.params.values,
  );
  return rows
    .map((row) => {
      const episode = toEpisode(row);
      return {
        requestId: row.request_id,
        opts: ZTriggerRequestOpts.parse(row.request_opts),
        insertedAt: row.request_inserted_at,
        episode,
        fence: {
          dedupeKey: claimKeyOf(episode),
          owner: options.node,
          attempt: episode.attempt,
          episodeId: episode.id,
        },
      };
    })
    .sort(
      (a, b) =>
        a.insertedAt.getTime() - b.insertedAt.getTime() ||
        Number(a.requestId) - Number(b.requestId),
    );
}
