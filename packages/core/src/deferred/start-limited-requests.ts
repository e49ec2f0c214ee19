import type { Queryable } from "../db/index";
import {
  limitGateSql,
  limitRulesParam,
  type LimitedEpisode,
  type LimitRule,
} from "../limits/index";
import { pickDueRequests, type PickDueRequestsOptions } from "./pick-due-requests";
import { startStatementSql, type StartedRow } from "./start-requested-sql";

/** The actors under a cluster-wide limit, and the rules of one of their episodes. */
export interface LimitedRequests {
  actorIds: readonly string[];
  rulesFor(episode: LimitedEpisode): readonly LimitRule[];
  /** At most this many of an actor's requests per call (limits' claimCap); none: its slots. */
  capFor?(actorId: string): number | undefined;
  /**
   * The actor's own `global` rule in an env (limits' actorGlobalRule): a call takes no more of
   * its requests than that limit has room for now.
   */
  roomFor?(actorId: string, env: string | null): LimitRule | undefined;
  /**
   * Called with the earliest instant a rate limit that refused one of this call's requests lets
   * a start through: the caller polls again then (nothing else wakes it for a rate limit).
   */
  onRateWait?(until: Date): void;
}

const GATE = limitGateSql("$2::uuid[]", "$3::jsonb");

/**
 * startRequestedEpisodes for actors under a cluster-wide limit (SPEC section 16). A key is a
 * function of the input, so the node reads the due requests first (the same pick, claim order,
 * skipping refused ones while their limit is full), computes each episode's rules, then starts
 * them in one statement that re-takes each request only while it is still pending (FOR UPDATE
 * SKIP LOCKED: one another node took meanwhile is skipped) and passes the limit gate (limits/).
 * Started: request consumed, episode running under its own lease, as the plain path. Refused:
 * the request stays pending with the refusal in `limit_wait`, the episode's in its row.
 */
export async function startLimitedRequests(
  options: PickDueRequestsOptions & { leaseSeconds: number },
  limited: LimitedRequests,
  db: Queryable,
): Promise<StartedRow[]> {
  const limits = options.limits.map(({ actorId, limit }) => ({
    actorId,
    limit: Math.min(limit, limited.capFor?.(actorId) ?? limit),
    room: limited.roomFor?.(actorId, options.sourceEnv),
  }));
  const pick = pickDueRequests({ ...options, limits }, [
    "id",
    "episode_id",
    "claim_priority",
    "run_at",
  ]);
  if (pick === undefined) return [];
  const { rows: due } = await db.query<LimitedEpisode & { id: string; episode_id: string }>(
    `WITH ${pick.cte}
     SELECT p.id::text AS id, p.episode_id::text AS episode_id, e.actor_id AS "actorId",
            e.expectation_id AS "expectationId", e.source_env AS "sourceEnv", e.input,
            $1::text AS picked_by
       FROM picked p JOIN cyclium_episodes e ON e.id = p.episode_id
      WHERE e.id = ANY(ARRAY(SELECT episode_id FROM picked))
      ORDER BY p.claim_priority DESC, p.run_at, p.id`,
    pick.params.values,
  );
  if (due.length === 0) return [];
  const head = `candidate AS (
       SELECT * FROM unnest($5::bigint[], $2::uuid[]) AS t(request_id, episode_id)
     ),
     ${GATE.cte},
     locked AS MATERIALIZED (
       SELECT r.id AS request_id, r.episode_id FROM cyclium_trigger_requests r
        WHERE r.id = ANY($5::bigint[]) AND r.status = 'pending' AND r.run_at <= now()
        FOR UPDATE SKIP LOCKED
     ),
     keyed AS MATERIALIZED (
       SELECT l.request_id, l.episode_id, w.state AS claim_state, w.attempt AS claim_attempt
         FROM locked l
         JOIN cyclium_episodes e ON e.id = l.episode_id
         LEFT JOIN cyclium_work_claims w
           ON w.dedupe_key = COALESCE(e.dedupe_key, 'episode:' || e.id::text)
        WHERE e.id = ANY(ARRAY(SELECT episode_id FROM locked))
     ),
     free AS MATERIALIZED (
       SELECT * FROM keyed
        WHERE claim_state IS DISTINCT FROM 'claimed' AND NOT ${GATE.refused("keyed.episode_id")}
     ),
     request_refused AS (
       UPDATE cyclium_trigger_requests r SET limit_wait = lg.wait, updated_at = now()
         FROM keyed k JOIN limit_gate lg ON lg.episode_id = k.episode_id
        WHERE r.id = ANY(ARRAY(SELECT request_id FROM keyed)) AND r.id = k.request_id
          AND lg.admitted_at IS NULL
     )`;
  const { rows } = await db.query<StartedRow>(startStatementSql(head, GATE), [
    options.node,
    due.map((request) => request.episode_id),
    limitRulesParam(due.map((request) => limited.rulesFor(request))),
    options.leaseSeconds,
    due.map((request) => request.id),
  ]);
  if (rows.length < due.length && limited.onRateWait !== undefined) {
    const { rows: waits } = await db.query<{ until: Date | null }>(
      `SELECT min((limit_wait->>'until')::timestamptz) AS until FROM cyclium_trigger_requests
        WHERE id = ANY($1::bigint[]) AND status = 'pending' AND limit_wait ? 'until'`,
      [due.map((request) => request.id)],
    );
    const until = waits[0]?.until;
    if (until !== null && until !== undefined) limited.onRateWait(until);
  }
  return rows;
}
