import type { LimitRule } from "../limits/index";
import { envScopeSql, SqlParams } from "../scope/index";

/** Which pending requests a node may take: per actor its free slots, in its stack and env. */
export interface PickDueRequestsOptions {
  /** The claiming node's identity (`claimed_by`): always `$1`. */
  node: string;
  /**
   * Per actor, at most this many requests: the actor's free slots on this node. `room`: the
   * actor's own `global` concurrency rule (limits' actorGlobalRule): then also at most the room
   * that limit has now, counted in the same statement (a hint; the start's gate decides).
   */
  limits: readonly { actorId: string; limit: number; room?: LimitRule | undefined }[];
  /** Only requests of this stack; null = every stack. */
  sourceStack: string | null;
  /** Strict: null picks only requests of the unset env. */
  sourceEnv: string | null;
}

/**
 * The `picked` CTE both ways of taking deferred work start with (claimTriggerRequests, and
 * startRequestedEpisodes under the episode's own lease): due requests only (`run_at <= now()`,
 * the database clock), per actor at most its free slots (LATERAL), higher claim priority first
 * and then FIFO by run_at, through the pending-claim partial index; FOR UPDATE SKIP LOCKED, so
 * concurrent pollers take disjoint batches. MATERIALIZED: as `WHERE id IN (subquery)` PostgreSQL
 * may run the subquery once per candidate row and claim far past the LIMIT (measured: 10 of 10
 * rows for limits 2 + 3); the CTE runs it once. Undefined when no actor has a free slot.
 * A request whose episode a cluster-wide limit refused is skipped while that limit is still
 * full (limits/, SPEC section 16): it neither churns nor holds back the requests behind it.
 *
 * `$1` is the node, `$2`/`$3` the limits; `extra` values follow from `$4` in that order, then
 * the rooms' and the scope's. `columns` are the request's columns the CTE keeps (`id` first).
 */
export function pickDueRequests(
  options: PickDueRequestsOptions,
  columns: readonly string[],
  extra: readonly unknown[] = [],
): { cte: string; params: SqlParams } | undefined {
  const limits = options.limits.filter((entry) => entry.limit > 0);
  if (limits.length === 0) return undefined;
  const params = new SqlParams([
    options.node,
    limits.map((entry) => entry.actorId),
    limits.map((entry) => entry.limit),
    ...extra,
  ]);
  const roomed = limits.some((entry) => entry.room !== undefined);
  // The running episodes holding the key, through the gate's partial GIN index: one count per
  // actor and poll. Picking 24 where one fits cost 23 refusals (two writes each) per start.
  const lim = roomed
    ? `CASE WHEN a.room_key IS NULL THEN a.lim ELSE least(a.lim, greatest(0, a.room_lim -
         (SELECT count(*)::int FROM cyclium_episodes re
           WHERE re.status = 'running' AND re.limit_keys IS NOT NULL
             AND re.limit_keys @> ARRAY[a.room_key]))) END`
    : "a.lim";
  const actors = roomed
    ? `unnest($2::text[], $3::int[], ${params.add(limits.map((entry) => entry.room?.k ?? null))}::text[],
              ${params.add(limits.map((entry) => entry.room?.l ?? null))}::int[])
         AS a(actor_id, lim, room_key, room_lim)`
    : "unnest($2::text[], $3::int[]) AS a(actor_id, lim)";
  const env = envScopeSql("q.source_env", options.sourceEnv, params);
  const stack =
    options.sourceStack === null ? "TRUE" : `q.source_stack = ${params.add(options.sourceStack)}`;
  const kept = columns.map((column) => `q.${column}`).join(", ");
  return {
    params,
    cte: `picked AS MATERIALIZED (
       SELECT ${kept}
         FROM ${actors}
         CROSS JOIN LATERAL (
           SELECT ${kept} FROM cyclium_trigger_requests q
            WHERE q.status = 'pending' AND q.actor_id = a.actor_id AND q.run_at <= now()
              AND ${env} AND ${stack}
              AND (q.limit_wait IS NULL OR NOT cyclium_limit_full(q.limit_wait))
            ORDER BY q.claim_priority DESC, q.run_at, q.id
            LIMIT ${lim}
            FOR UPDATE SKIP LOCKED) q
     )`,
  };
}
