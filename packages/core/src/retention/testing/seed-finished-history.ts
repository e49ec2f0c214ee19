import type { Queryable } from "../../db/index";

export interface SeedFinishedHistoryOptions {
  count: number;
  actorId?: string;
  status?: "completed" | "failed" | "cancelled";
  /** How long ago the episodes finished. */
  finishedAgoMs: number;
  /** Spreads `finished_at` over this much time before `finishedAgoMs` (default 0). */
  spreadMs?: number;
  stepsPerEpisode?: number;
  /** A checkpoint, a completed trigger request and a `done` work claim per episode. */
  withCheckpoint?: boolean;
  withRequest?: boolean;
  withClaim?: boolean;
  sourceEnv?: string | null;
  workflowInstanceId?: string | null;
  archived?: boolean;
}

// One statement, generate_series: a million finished episodes with their journal in tens of
// seconds, for the pruner's tests, its EXPLAIN checks and the history benchmark.
const SQL = `
WITH inserted AS (
  INSERT INTO cyclium_episodes
    (actor_id, expectation_id, status, trigger_type, source_env, workflow_instance_id,
     inserted_at, updated_at, started_at, finished_at, archived_at, result, executed_by)
  SELECT $2, 'check', $3, 'manual', $9, $10,
         t - interval '1 second', t, t - interval '1 second', t,
         CASE WHEN $11::boolean THEN t END, '{"ok":true}', 'seed-node'
    FROM generate_series(1, $1::int) AS g(n),
         LATERAL (SELECT now() - make_interval(secs => ($4::double precision
                    + $5::double precision * n / $1::int) / 1000)) AS at(t)
  RETURNING id, finished_at
), steps AS (
  INSERT INTO cyclium_episode_steps (episode_id, attempt, step_no, outcome, inserted_at, node)
  SELECT id, 1, s, CASE WHEN s = $6::int THEN 'done' ELSE 'continue' END, finished_at, 'seed-node'
    FROM inserted, generate_series(1, $6::int) AS s
), checkpoints AS (
  INSERT INTO cyclium_episode_checkpoints (episode_id, number, phase, state, inserted_at)
  SELECT id, 1, 'seed', '{}', finished_at FROM inserted WHERE $7::boolean
), requests AS (
  INSERT INTO cyclium_trigger_requests
    (episode_id, actor_id, expectation_id, source_env, status, inserted_at, updated_at, completed_at)
  SELECT id, $2, 'check', $9, 'completed', finished_at, finished_at, finished_at
    FROM inserted WHERE $8::boolean
), claims AS (
  INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, inserted_at, updated_at)
  SELECT 'episode:' || id, 'done', 'seed-node', finished_at, finished_at, finished_at
    FROM inserted WHERE $12::boolean
)
SELECT count(*)::int AS n FROM inserted`;

/** Inserts finished episodes (and what hangs off them) that finished `finishedAgoMs` ago. */
export async function seedFinishedHistory(
  options: SeedFinishedHistoryOptions,
  db: Queryable,
): Promise<number> {
  const { rows } = await db.query<{ n: number }>(SQL, [
    options.count,
    options.actorId ?? "history_actor",
    options.status ?? "completed",
    options.finishedAgoMs,
    options.spreadMs ?? 0,
    options.stepsPerEpisode ?? 3,
    options.withCheckpoint ?? false,
    options.withRequest ?? false,
    options.sourceEnv ?? null,
    options.workflowInstanceId ?? null,
    options.archived ?? false,
    options.withClaim ?? false,
  ]);
  return rows[0]?.n ?? 0;
}
