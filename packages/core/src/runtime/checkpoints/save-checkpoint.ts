import type { ClaimFence } from "../../claims/index";
import type { Queryable } from "../../db/index";
import { fenceCte } from "../../episodes/fence-cte";

export interface SaveCheckpointOptions {
  episodeId: string;
  /** The runner's claim; null when claims are off. */
  fence: ClaimFence | null;
  /** The step it is taken in (0 = init). */
  number: number;
  phase: string;
  schemaVersion: number;
  state: unknown;
}

const PARAMS = 5;

// Fenced like the step journal: a zombie that lost its claim must not leave a checkpoint the new
// owner (or the next recovery) would resume from.
const SQL = (fence: string): string => `
WITH ${fence},
saved AS (
  INSERT INTO cyclium_episode_checkpoints (episode_id, number, phase, schema_version, state)
  SELECT $1, $2, $3, $4, $5::jsonb FROM fence
  ON CONFLICT (episode_id, number) DO UPDATE
     SET phase = EXCLUDED.phase, schema_version = EXCLUDED.schema_version,
         state = EXCLUDED.state, inserted_at = now()
  RETURNING id
)
SELECT EXISTS (SELECT 1 FROM fence) AS held, (SELECT count(*)::int FROM saved) AS saved`;

/** Stores a checkpoint while the writer still holds the episode's claim; false when fenced. */
export async function saveCheckpoint(
  options: SaveCheckpointOptions,
  db: Queryable,
): Promise<{ saved: boolean }> {
  const fence = fenceCte(options.fence, PARAMS + 1);
  const result = await db.query<{ held: boolean; saved: number }>(SQL(fence.sql), [
    options.episodeId,
    options.number,
    options.phase,
    options.schemaVersion,
    JSON.stringify(options.state ?? null),
    ...fence.values,
  ]);
  return { saved: result.rows[0]?.held === true && result.rows[0].saved === 1 };
}
