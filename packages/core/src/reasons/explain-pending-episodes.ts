import type { ActorDefinition } from "../actors/index";
import type { Queryable } from "../db/index";
import { actorGlobalRule, toLimitWait, type LimitRule } from "../limits/index";
import { listClusterModes } from "../nodes/queries/index";
import {
  explainPendingEpisode,
  type EpisodeWaitReason,
  type PendingEpisodeFacts,
} from "./explain-pending-episode";

export interface ExplainPendingEpisodesOptions {
  db: Queryable;
  /** A page of episode ids; those not pending (or unknown) get no reason. At most a page (500). */
  episodeIds: readonly string[];
  /** The deployment's actors (stacks, defined limit); an actor not among them is judged without. */
  actors?: readonly Pick<
    ActorDefinition,
    "identifier" | "stacks" | "maxConcurrentEpisodes" | "concurrency"
  >[];
}

/** Episodes counted ahead in a queue at most: past it the position reads "10,001". */
const MAX_AHEAD_COUNTED = 10_000;

type FactsRow = {
  id: string;
  actor_id: string;
  source_env: string | null;
  queued_by: string | null;
  ahead: number;
  running_by_node: Record<string, number> | null;
  request_status: "pending" | "claimed" | null;
  request_claimed_by: string | null;
  request_age_ms: number | null;
  request_due_in_ms: number | null;
  request_run_at: Date | null;
  request_priority: number | null;
  limit_wait: unknown;
  limit_running: number | null;
  limit_nodes: string[] | null;
  limit_rate_active: boolean | null;
};

/**
 * Why each pending episode of a page waits (explainPendingEpisode), in one statement for the
 * page's rows beside the cluster's modes and limits (listClusterModes: three small reads), not one per row. The
 * statement's reads are indexed: the rows by primary key; their place in line on the partial
 * index of node-queued pending episodes (queued_by, actor_id, inserted_at, id), capped at 10,000;
 * the running episodes of the page's actors on the partial index of running rows (bounded by
 * the cluster's slots; MATERIALIZED, or the planner inlines it into the per-row subquery and
 * reads the 180 running rows once per row: 9,607 buffers instead of 723 for a page of 50); the
 * open request by its episode_id index. 50 pending rows among 200,000 episodes, with the cluster
 * reads: 6-16 ms, every read of cyclium_episodes an index scan (pkey, queued_idx, running_idx).
 */
export async function explainPendingEpisodes(
  options: ExplainPendingEpisodesOptions,
): Promise<Record<string, EpisodeWaitReason>> {
  const ids = [...new Set(options.episodeIds)];
  if (ids.length === 0) return {};
  if (ids.length > 500) throw new RangeError("explainPendingEpisodes takes at most 500 ids");
  const [{ rows }, cluster] = await Promise.all([
    options.db.query<FactsRow>(
      `WITH page AS (
         SELECT id, actor_id, source_env, queued_by, inserted_at, limit_wait
           FROM cyclium_episodes
          WHERE id = ANY($1::uuid[]) AND status = 'pending'
       ), running AS MATERIALIZED (
         SELECT actor_id, executed_by, count(*)::int AS n
           FROM cyclium_episodes
          WHERE status = 'running' AND archived_at IS NULL AND executed_by IS NOT NULL
            AND actor_id IN (SELECT actor_id FROM page)
          GROUP BY actor_id, executed_by
       )
       SELECT p.id::text, p.actor_id, p.source_env, p.queued_by,
              coalesce(q.ahead, 0) AS ahead,
              (SELECT jsonb_object_agg(r.executed_by, r.n) FROM running r
                WHERE r.actor_id = p.actor_id) AS running_by_node,
              t.status AS request_status, t.claimed_by AS request_claimed_by,
              greatest(0, extract(epoch FROM now() - t.run_at) * 1000)::float8
                AS request_age_ms,
              greatest(0, extract(epoch FROM t.run_at - now()) * 1000)::float8
                AS request_due_in_ms,
              t.run_at AS request_run_at, t.claim_priority AS request_priority,
              p.limit_wait, l.limit_running, l.limit_nodes,
              (p.limit_wait->>'until')::timestamptz > now() AS limit_rate_active
         FROM page p
         LEFT JOIN LATERAL (
           SELECT count(*)::int AS ahead FROM (
             SELECT 1 FROM cyclium_episodes o
              WHERE o.status = 'pending' AND o.queued_by = p.queued_by
                AND o.actor_id = p.actor_id
                AND (o.inserted_at, o.id) < (p.inserted_at, p.id)
              LIMIT ${MAX_AHEAD_COUNTED}) a
         ) q ON p.queued_by IS NOT NULL
         LEFT JOIN LATERAL (
           SELECT status, claimed_by, run_at, claim_priority FROM cyclium_trigger_requests r
            WHERE r.episode_id = p.id AND r.status IN ('pending', 'claimed')
            ORDER BY r.inserted_at DESC LIMIT 1
         ) t ON true
         -- A concurrency limit's holders now: the running episodes with its key (GIN index).
         LEFT JOIN LATERAL (
           SELECT count(*)::int AS limit_running,
                  array_agg(DISTINCT r.executed_by ORDER BY r.executed_by) AS limit_nodes
             FROM cyclium_episodes r
            WHERE r.status = 'running' AND r.limit_keys IS NOT NULL
              AND r.limit_keys @> ARRAY[p.limit_wait->>'k']
         ) l ON p.limit_wait->>'c' = 'concurrency'`,
      [ids],
    ),
    listClusterModes({ db: options.db }),
  ]);
  const actors = new Map((options.actors ?? []).map((actor) => [actor.identifier, actor]));
  const held = await actorLimitsNow(options.db, rows, actors);
  const reasons: Record<string, EpisodeWaitReason> = {};
  for (const row of rows) {
    const facts: PendingEpisodeFacts = {
      actorId: row.actor_id,
      sourceEnv: row.source_env,
      queuedBy: row.queued_by,
      ahead: row.ahead,
      request:
        row.request_status === null
          ? null
          : {
              status: row.request_status,
              claimedBy: row.request_claimed_by,
              ageMs: row.request_age_ms ?? 0,
              dueInMs: row.request_due_in_ms ?? 0,
              runAt: row.request_run_at ?? new Date(0),
              priority: row.request_priority ?? 0,
            },
      runningByNode: row.running_by_node ?? {},
      limit:
        row.limit_wait === null
          ? (held.get(row.id) ?? null)
          : {
              wait: toLimitWait(row.limit_wait),
              running: row.limit_running ?? 0,
              nodes: (row.limit_nodes ?? []).filter((node) => node !== null),
              rateActive: row.limit_rate_active === true,
            },
    };
    reasons[row.id] = explainPendingEpisode(facts, cluster, actors.get(row.actor_id));
  }
  return reasons;
}

type HeldLimit = NonNullable<PendingEpisodeFacts["limit"]>;

/**
 * A due request whose start was never refused may still wait on its actor's own `global` limit:
 * a poll takes no more of the actor's requests than that limit has room for (pickDueRequests),
 * so with the limit full nothing is tried and nothing refused. Per such rule of the page, how
 * many running episodes hold its key now and where (the gate's partial GIN index).
 */
async function actorLimitsNow(
  db: Queryable,
  rows: readonly FactsRow[],
  actors: ReadonlyMap<string, NonNullable<ExplainPendingEpisodesOptions["actors"]>[number]>,
): Promise<Map<string, HeldLimit>> {
  const rules = new Map<string, LimitRule>();
  const ruleOf = new Map<string, LimitRule>();
  for (const row of rows) {
    if (row.limit_wait !== null || row.request_status !== "pending") continue;
    const actor = actors.get(row.actor_id);
    const rule = actor && actorGlobalRule(row.actor_id, row.source_env, actor);
    if (rule === undefined) continue;
    rules.set(rule.k, rule);
    ruleOf.set(row.id, rule);
  }
  const held = new Map<string, HeldLimit>();
  if (rules.size === 0) return held;
  const { rows: counts } = await db.query<{ k: string; running: number; nodes: string[] | null }>(
    `SELECT k.k, count(r.id)::int AS running,
            array_agg(DISTINCT r.executed_by ORDER BY r.executed_by)
              FILTER (WHERE r.executed_by IS NOT NULL) AS nodes
       FROM unnest($1::text[]) AS k(k)
       LEFT JOIN cyclium_episodes r
         ON r.status = 'running' AND r.limit_keys IS NOT NULL AND r.limit_keys @> ARRAY[k.k]
      GROUP BY k.k`,
    [[...rules.keys()]],
  );
  const byKey = new Map(counts.map((count) => [count.k, count]));
  const at = new Date();
  for (const [id, rule] of ruleOf) {
    const count = byKey.get(rule.k);
    const running = count?.running ?? 0;
    held.set(id, {
      wait: { k: rule.k, c: "concurrency", l: rule.l, n: running, at },
      running,
      nodes: count?.nodes ?? [],
      rateActive: false,
    });
  }
  return held;
}
