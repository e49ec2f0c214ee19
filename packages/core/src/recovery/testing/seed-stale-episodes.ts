import type { Queryable } from "../../db/index";

export interface SeedStaleEpisodesOptions {
  count: number;
  actorId?: string;
  expectationId?: string;
  sourceStack?: string | null;
  sourceEnv?: string | null;
  /** How long ago the episodes started (and last journaled, when `withSteps`). */
  ageMs?: number;
  /** Give each episode a dedupe key (and so a claim key of its own). */
  dedupePrefix?: string | null;
  /** Journal one step per episode at `started_at`, as a run that died after its first step. */
  withSteps?: boolean;
  workflowInstanceId?: string | null;
  workflowStep?: string | null;
}

const SQL = `
WITH inserted AS (
  INSERT INTO cyclium_episodes
    (actor_id, expectation_id, status, trigger_type, dedupe_key, started_at, updated_at,
     source_stack, source_env, workflow_instance_id, workflow_step, source_node, executed_by)
  SELECT $2, $3, 'running', 'manual',
         CASE WHEN $4::text IS NULL THEN NULL ELSE $4::text || ':' || gen_random_uuid() END,
         now() - make_interval(secs => $5::double precision / 1000),
         now() - make_interval(secs => $5::double precision / 1000),
         $6, $7, $8, $9, 'dead-node', 'dead-node'
    FROM generate_series(1, $1::int)
  RETURNING id, started_at
),
steps AS (
  INSERT INTO cyclium_episode_steps (episode_id, attempt, step_no, outcome, inserted_at, node)
  SELECT id, 1, 1, 'continue', started_at, 'dead-node' FROM inserted WHERE $10::boolean
)
SELECT id FROM inserted`;

/** Inserts `running` episodes whose node is gone: the sweep's input, for tests and the bench. */
export async function seedStaleEpisodes(
  options: SeedStaleEpisodesOptions,
  db: Queryable,
): Promise<string[]> {
  const result = await db.query<{ id: string }>(SQL, [
    options.count,
    options.actorId ?? "resource_monitor",
    options.expectationId ?? "check_resource_limits",
    options.dedupePrefix === undefined ? "test" : options.dedupePrefix,
    options.ageMs ?? 600_000,
    options.sourceStack ?? null,
    options.sourceEnv ?? null,
    options.workflowInstanceId ?? null,
    options.workflowStep ?? null,
    options.withSteps ?? false,
  ]);
  return result.rows.map((row) => row.id);
}
