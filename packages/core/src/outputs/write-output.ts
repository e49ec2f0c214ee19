import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import { fenceCte } from "../episodes/fence-cte";
import {
  EPISODE_OUTPUT_COLUMNS,
  toEpisodeOutput,
  type EpisodeOutput,
  type EpisodeOutputRow,
} from "./episode-output";

export interface WriteOutputOptions {
  /** The env-folded key (`outputKeyOf`). */
  outputKey: string;
  episode: { id: string; actorId: string; sourceEnv: string | null };
  /** The claim's attempt (the episode's without claims), recorded with the row. */
  attempt: number;
  /** Anything that survives JSON; undefined is stored as null. */
  value: unknown;
  /** The claim the writer must still hold at its attempt; null when claims are off. */
  fence: ClaimFence | null;
}

/**
 * `written`: this call stored the output. `existed`: an earlier write under the key won (a re-run
 * after a steal, another node, an earlier episode of the same firing); `output` is that row, so
 * the caller can go on with what was written. `fenced`: this node no longer holds the claim at
 * its attempt, nothing was written or read.
 */
export type WriteOutputResult =
  | { kind: "written"; output: EpisodeOutput }
  | { kind: "existed"; output: EpisodeOutput }
  | { kind: "fenced" };

/**
 * Writes an output exactly once per key (issue 20, the output router): one statement whose
 * INSERT selects from the claim fence (FOR SHARE, so a steal waits for it to commit and a stale
 * attempt inserts nothing) and skips a key that exists (the unique index on output_key).
 */
export async function writeOutput(
  options: WriteOutputOptions,
  db: Queryable,
): Promise<WriteOutputResult> {
  const { episode } = options;
  const cte = fenceCte(options.fence, 1);
  const p = cte.values.length;
  const inserted = await db.query<{ held: boolean } & Partial<EpisodeOutputRow>>(
    `WITH ${cte.sql},
     written AS (
       INSERT INTO cyclium_episode_outputs (output_key, episode_id, attempt, actor_id, value, env)
       SELECT $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}::jsonb, $${p + 6} FROM fence
       ON CONFLICT (output_key) DO NOTHING
       RETURNING ${EPISODE_OUTPUT_COLUMNS})
     SELECT EXISTS (SELECT 1 FROM fence) AS held, written.*
       FROM (SELECT 1) AS one LEFT JOIN written ON true`,
    [
      ...cte.values,
      options.outputKey,
      episode.id,
      options.attempt,
      episode.actorId,
      JSON.stringify(options.value ?? null),
      episode.sourceEnv,
    ],
  );
  const row = inserted.rows[0];
  if (row?.held !== true) return { kind: "fenced" };
  if (row.id !== undefined && row.id !== null) {
    return { kind: "written", output: toEpisodeOutput(row as EpisodeOutputRow) };
  }
  // The winner may have committed after this statement's snapshot: read it in a new one.
  const existing = await db.query<EpisodeOutputRow>(
    `SELECT ${EPISODE_OUTPUT_COLUMNS} FROM cyclium_episode_outputs WHERE output_key = $1`,
    [options.outputKey],
  );
  const winner = existing.rows[0];
  if (winner === undefined) {
    throw new Error(`output ${options.outputKey} conflicted but is gone (pruned meanwhile?)`);
  }
  return { kind: "existed", output: toEpisodeOutput(winner) };
}
