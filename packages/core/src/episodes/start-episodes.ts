import { takeClaimsSql } from "../claims/claim-take-over-sql";
import type { Queryable } from "../db/index";
import {
  limitGateSql,
  limitRulesParam,
  toLimitWait,
  type LimitRule,
  type LimitWait,
} from "../limits/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "./episode-row";

export interface StartEpisodesOptions {
  /** The starting node: the claims' `owner_node` and the episodes' `executed_by`. */
  owner: string;
  leaseSeconds: number;
  /**
   * Distinct claim keys (the dedupe key, or `episode:{id}` without one). `resend`: this start was
   * sent before and failed on a transient error, so it may have committed with its reply lost; an
   * episode already `running`, executed by `owner`, whose claim `owner` holds with a live lease,
   * is then its own earlier start and is answered `started` at the claim's attempt. The caller
   * must make sure no other start of the same episode is under way in this process (LocalRunner
   * runs an episode at most once at a time), since the owner alone cannot tell two of them apart.
   */
  episodes: readonly {
    episodeId: string;
    claimKey: string;
    resend?: boolean;
    /** The traceparent of this attempt's run span, kept as `trace_context.run` (tracing on). */
    runTraceparent?: string | null;
    /** Its cluster-wide limits (SPEC section 16, limits/): the start's gate checks them. */
    limits?: readonly LimitRule[];
  }[];
}

export type StartEpisodesOutcome =
  /** Claimed at `attempt` and marked running: run it. */
  | { kind: "started"; attempt: number; episode: Episode }
  /**
   * Not pending any more (cancelled, expired, started elsewhere) or archived. When the claim was
   * taken before the episode turned out not to start, `claimAttempt` is set: release it.
   */
  | { kind: "not_pending"; claimAttempt: number | null }
  /** Its claim is held (live or lapsed): nothing done here; take the one-episode path. */
  | { kind: "contended" }
  /** A cluster-wide limit is full (SPEC section 16): still pending, no claim taken. */
  | { kind: "limited"; wait: LimitWait };

/**
 * Acquires the work claims of many pending episodes and marks them running, in one statement and
 * one commit, as `acquire` followed by `startEpisode` would do for each (SPEC section 4): the
 * claim is inserted, or taken over when `done`/`failed`/`expired` (attempt + 1); an episode
 * starts only if its claim was taken in this statement and it is still pending and unarchived.
 * Starting ends the queue's ownership (`queued_by`): from here the claim owns the episode, and a
 * later retry to `pending` is owned by its trigger request alone.
 *
 * A claim still `claimed` by anyone is left alone, lapsed or not: telling a steal from a fresh
 * take-over takes the one-episode acquire, which the caller falls back to (`contended`). Such
 * claims are rare on this path (a dispatched episode's claim is normally new), so the common case
 * pays 1 commit per batch instead of 2 per episode: with 24 episodes per batch, 0.08 instead of 2.
 * The upsert is acquireClaim's take-over arm (`takeClaimsSql`, claims/claim-take-over-sql.ts);
 * `held` is where this statement differs on purpose: any `claimed` claim, not only a live one.
 *
 * The busy test reads the snapshot (as acquireClaim's does) so that it never locks a held row;
 * the upsert re-checks under the row lock. ORDER BY claim_key takes the row locks in one order,
 * so two nodes upserting overlapping keys cannot deadlock. Tables are reached by `= ANY` of the
 * batch's keys: a NOT EXISTS per key was planned as a sequential scan of the claims table, which
 * grows by a row per episode (4.9 ms per batch of 24 after 20,000 episodes, 51 buffers each).
 */
const GATE = limitGateSql("$3::uuid[]", "$7::jsonb");

const SQL = `
WITH input AS (
  SELECT * FROM unnest($3::uuid[], $4::text[], $5::boolean[], $6::text[])
           AS t(episode_id, claim_key, resend, run_traceparent)
),
${GATE.cte},
startable AS (
  SELECT i.episode_id, i.claim_key, i.run_traceparent
    FROM input i JOIN cyclium_episodes e ON e.id = i.episode_id
   WHERE e.id = ANY($3::uuid[]) AND e.status IN ('pending', 'waiting') AND e.archived_at IS NULL
     AND NOT ${GATE.refused("i.episode_id")}
),
held AS (
  SELECT w.dedupe_key FROM cyclium_work_claims w
   WHERE w.dedupe_key = ANY($4::text[]) AND w.state = 'claimed'
),
claimed AS (
  ${takeClaimsSql({
    key: "s.claim_key",
    owner: "$1",
    leaseSeconds: "$2",
    source: `FROM startable s
   WHERE s.claim_key NOT IN (SELECT dedupe_key FROM held)
   ORDER BY s.claim_key`,
  })}
  RETURNING c.dedupe_key, c.attempt
),
started AS (
  UPDATE cyclium_episodes e
     SET status = 'running', finished_at = NULL,
         executed_by = $1, queued_by = NULL, queued_at = NULL, updated_at = now(),
         trace_context = CASE WHEN s.run_traceparent IS NULL THEN e.trace_context
           ELSE COALESCE(e.trace_context, '{}'::jsonb) || jsonb_build_object('run', s.run_traceparent)
         END,
         ${GATE.set("e.id")}
    FROM startable s JOIN claimed c ON c.dedupe_key = s.claim_key
   WHERE e.id = ANY(ARRAY(SELECT episode_id FROM startable))
     AND e.id = s.episode_id AND e.status IN ('pending', 'waiting') AND e.archived_at IS NULL
  RETURNING ${episodeColumns("e")}
),
${GATE.writes("started")},
-- A resent start that had committed: the episode is running here under this node's live claim.
-- Never startable as well (it is not pending), so it never has a row in claimed or started.
adopted AS (
  SELECT c.attempt AS adopted_attempt, ${episodeColumns("e")}
    FROM input i
    JOIN cyclium_episodes e ON e.id = i.episode_id
    JOIN cyclium_work_claims c ON c.dedupe_key = i.claim_key
   WHERE i.resend AND e.id = ANY($3::uuid[]) AND c.dedupe_key = ANY($4::text[])
     AND e.status = 'running' AND e.executed_by = $1 AND e.archived_at IS NULL
     AND c.state = 'claimed' AND c.owner_node = $1 AND c.lease_until > now()
)
SELECT i.episode_id::text AS input_id,
       (s.episode_id IS NOT NULL) AS startable,
       COALESCE(c.attempt, a.adopted_attempt) AS claim_attempt,
       lg.wait AS limit_wait,
       mine.*
  FROM input i
  LEFT JOIN startable s ON s.episode_id = i.episode_id
  LEFT JOIN limit_gate lg ON lg.episode_id = i.episode_id AND lg.admitted_at IS NULL
  LEFT JOIN claimed c ON c.dedupe_key = i.claim_key
  LEFT JOIN adopted a ON a.id = i.episode_id
  LEFT JOIN (SELECT * FROM started
             UNION ALL SELECT ${episodeColumns()} FROM adopted) AS mine
    ON mine.id = i.episode_id`;

type Row = Partial<EpisodeRow> & {
  input_id: string;
  startable: boolean;
  claim_attempt: number | null;
  limit_wait: unknown;
};

/**
 * The parameters both start statements take, claim row or the episode's own lease: $1 owner,
 * $2 lease seconds, then per episode its id, claim key, resend flag and run traceparent; $7 the
 * limits' rules (limits/, null when no episode of the batch has one).
 */
export function startParams(options: StartEpisodesOptions): unknown[] {
  return [
    options.owner,
    options.leaseSeconds,
    options.episodes.map((entry) => entry.episodeId),
    options.episodes.map((entry) => entry.claimKey),
    options.episodes.map((entry) => entry.resend === true),
    options.episodes.map((entry) => entry.runTraceparent ?? null),
    limitRulesParam(options.episodes.map((entry) => entry.limits)),
  ];
}

/** One outcome per input episode, in input order. */
export async function startEpisodes(
  options: StartEpisodesOptions,
  db: Queryable,
): Promise<StartEpisodesOutcome[]> {
  if (options.episodes.length === 0) return [];
  const { rows } = await db.query<Row>(SQL, startParams(options));
  const byId = new Map(rows.map((row) => [row.input_id, row]));
  return options.episodes.map(({ episodeId }): StartEpisodesOutcome => {
    const row = byId.get(episodeId);
    if (row === undefined) return { kind: "not_pending", claimAttempt: null };
    if (row.id !== undefined && row.id !== null && row.claim_attempt !== null) {
      return { kind: "started", attempt: row.claim_attempt, episode: toEpisode(row as EpisodeRow) };
    }
    if (row.limit_wait !== null) return { kind: "limited", wait: toLimitWait(row.limit_wait) };
    if (!row.startable) return { kind: "not_pending", claimAttempt: null };
    if (row.claim_attempt === null) return { kind: "contended" };
    return { kind: "not_pending", claimAttempt: row.claim_attempt };
  });
}
