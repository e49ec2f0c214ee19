import { claimKeyOf, type ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import { toEpisode, type Episode } from "../episodes/index";
import { pickDueRequests } from "./pick-due-requests";
import { startLimitedRequests, type LimitedRequests } from "./start-limited-requests";
import { startStatementSql, type StartedRow } from "./start-requested-sql";
import type { ClaimTriggerRequestsOptions } from "./claim-trigger-requests";
import { ZTriggerRequestOpts, type TTriggerRequestOpts } from "./trigger-request";

export interface StartRequestedEpisodesOptions extends ClaimTriggerRequestsOptions {
  /** The lease the started episodes hold in their rows (database clock). */
  leaseSeconds: number;
  /**
   * Cluster-wide limits (SPEC section 16): the actors with any, and an episode's rules
   * (ActorRegistry.limitRulesFor). Their requests start through the limit gate
   * (startLimitedRequests); a refused one stays pending with the refusal in `limit_wait`.
   */
  limited?: LimitedRequests;
}

export interface StartedRequestedEpisode {
  /** The request its start consumed (deleted in the same statement). */
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
 * higher claim priority first, then by run_at, as claimTriggerRequests), deletes each, and starts
 * its episode under a lease held in its row (`executed_by`, `lease_until`, `attempt`). No claim
 * row is written, and the request is consumed: a delete adds no index entry, where marking it
 * `completed` added three (docs/benchmarks.md, "The request consumed by its start"). The episode
 * is the record of the run (`executed_by`, `started_at`, its attempts).
 *
 * - A request whose episode is no longer pending (cancelled, archived) is consumed too: nothing
 *   is left to run.
 * - A rolling upgrade leaves claim rows of the previous release's nodes: an episode whose key has
 *   a `claimed` claim row (live or lapsed) is left alone and so is its request (still pending);
 *   recovery's claim gate settles a lapsed one.
 * - The attempt is the row's, raised past the attempt of any claim row of the key: a run of the
 *   previous release journaled its steps under its claim's attempt, and a new run must not
 *   journal under the same (episode, attempt) (its steps would be dropped as duplicates).
 *
 * - Actors in `limited` (cluster-wide limits, SPEC section 16) start through the limit gate in a
 *   statement of their own (startLimitedRequests); the others' statement is unchanged.
 *
 * Returns only the started episodes, oldest request first.
 */
export async function startRequestedEpisodes(
  options: StartRequestedEpisodesOptions,
  db: Queryable,
): Promise<StartedRequestedEpisode[]> {
  const limited = new Set(options.limited?.actorIds ?? []);
  const plain = options.limits.filter((entry) => !limited.has(entry.actorId));
  const gated = options.limits.filter((entry) => limited.has(entry.actorId));
  const rows: StartedRow[] = [];
  const pick = pickDueRequests(
    { ...options, limits: plain },
    ["id", "episode_id"],
    [options.leaseSeconds],
  );
  if (pick !== undefined) {
    const head = `${pick.cte},
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
     )`;
    rows.push(...(await db.query<StartedRow>(startStatementSql(head), pick.params.values)).rows);
  }
  if (gated.length > 0 && options.limited !== undefined) {
    rows.push(...(await startLimitedRequests({ ...options, limits: gated }, options.limited, db)));
  }
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
