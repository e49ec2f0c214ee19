import type { ClaimFence } from "../../claims/index";
import type { Queryable } from "../../db/index";
import { limitGateSql, toLimitWait, type LimitWait } from "../../limits/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "../episode-row";
import { startParams, type StartEpisodesOptions } from "../start-episodes";

export type StartLeasedEpisodesOutcome =
  /** Running here under its own lease at `attempt`: run it, presenting `fence`. */
  | { kind: "started"; attempt: number; episode: Episode; fence: ClaimFence }
  /** Not pending any more (cancelled, archived, started elsewhere): nothing taken. */
  | { kind: "not_pending" }
  /** Its key has a `claimed` claim row (a node of the previous release): take the claim path. */
  | { kind: "contended" }
  /** A cluster-wide limit is full (SPEC section 16): still pending, nothing taken. */
  | { kind: "limited"; wait: LimitWait };

/**
 * startEpisodes (start-episodes.ts) for the episode's own lease (SPEC section 4): the queue's
 * start of pending episodes by id, one statement for a batch, with the lease in each row
 * (`executed_by`, `lease_until`, `attempt`) instead of a claim row upserted per episode.
 *
 * - A key with a `claimed` claim row (live or lapsed) is `contended`, as in startEpisodes: the
 *   one-episode acquire tells a steal from busy. A `done`/`failed` row raises `attempt` past its
 *   own, so no (episode, attempt) of the step journal is used twice across the upgrade.
 * - `resend`: a start whose reply was lost may have committed; an episode `running`, executed by
 *   `owner` with a live lease, is then its own earlier start and answered `started` at the row's
 *   attempt (the caller runs an episode at most once at a time, as for startEpisodes).
 */
const GATE = limitGateSql("$3::uuid[]", "$7::jsonb");

const SQL = `
WITH input AS (
  SELECT * FROM unnest($3::uuid[], $4::text[], $5::boolean[], $6::text[])
           AS t(episode_id, claim_key, resend, run_traceparent)
),
keyed AS MATERIALIZED (
  SELECT i.episode_id, i.run_traceparent, w.state AS claim_state, w.attempt AS claim_attempt
    FROM input i
    LEFT JOIN cyclium_work_claims w ON w.dedupe_key = i.claim_key AND w.dedupe_key = ANY($4::text[])
),
${GATE.cte},
started AS (
  UPDATE cyclium_episodes e
     SET status = 'running', finished_at = NULL,
         executed_by = $1, queued_by = NULL, queued_at = NULL,
         lease_until = now() + make_interval(secs => $2),
         attempt = GREATEST(e.attempt, COALESCE(k.claim_attempt + 1, 0)),
         updated_at = now(),
         trace_context = CASE WHEN k.run_traceparent IS NULL THEN e.trace_context
           ELSE COALESCE(e.trace_context, '{}'::jsonb) || jsonb_build_object('run', k.run_traceparent)
         END,
         ${GATE.set("e.id")}
    FROM keyed k
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM keyed
                           WHERE claim_state IS DISTINCT FROM 'claimed'
                             AND NOT ${GATE.refused("keyed.episode_id")}))
     AND e.id = k.episode_id AND e.status IN ('pending', 'waiting') AND e.archived_at IS NULL
  RETURNING ${episodeColumns("e")}
),
${GATE.writes("started")},
adopted AS (
  SELECT ${episodeColumns("e")}
    FROM input i JOIN cyclium_episodes e ON e.id = i.episode_id
   WHERE i.resend AND e.id = ANY($3::uuid[]) AND e.status = 'running'
     AND e.executed_by = $1 AND e.archived_at IS NULL AND e.lease_until > now()
)
SELECT i.episode_id::text AS input_id, (k.claim_state = 'claimed') AS held,
       lg.wait AS limit_wait, mine.*
  FROM input i
  LEFT JOIN keyed k ON k.episode_id = i.episode_id
  LEFT JOIN limit_gate lg ON lg.episode_id = i.episode_id AND lg.admitted_at IS NULL
  LEFT JOIN (SELECT * FROM started UNION ALL SELECT * FROM adopted) AS mine
    ON mine.id = i.episode_id`;

type Row = Partial<EpisodeRow> & {
  input_id: string;
  held: boolean | null;
  limit_wait: unknown;
};

/** One outcome per input episode, in input order. Episode ids and claim keys must be distinct. */
export async function startLeasedEpisodes(
  options: StartEpisodesOptions,
  db: Queryable,
): Promise<StartLeasedEpisodesOutcome[]> {
  if (options.episodes.length === 0) return [];
  const { rows } = await db.query<Row>(SQL, startParams(options));
  const byId = new Map(rows.map((row) => [row.input_id, row]));
  return options.episodes.map(({ episodeId, claimKey }): StartLeasedEpisodesOutcome => {
    const row = byId.get(episodeId);
    if (row?.id !== undefined && row.id !== null) {
      const episode = toEpisode(row as EpisodeRow);
      return {
        kind: "started",
        attempt: episode.attempt,
        episode,
        fence: { dedupeKey: claimKey, owner: options.owner, attempt: episode.attempt, episodeId },
      };
    }
    if (row?.held === true) return { kind: "contended" };
    if (row !== undefined && row.limit_wait !== null) {
      return { kind: "limited", wait: toLimitWait(row.limit_wait) };
    }
    return { kind: "not_pending" };
  });
}
