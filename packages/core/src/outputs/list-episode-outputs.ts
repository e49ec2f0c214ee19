import type { Queryable } from "../db/index";
import {
  EPISODE_OUTPUT_COLUMNS,
  toEpisodeOutput,
  type EpisodeOutput,
  type EpisodeOutputRow,
} from "./episode-output";

/** The outputs an episode wrote, oldest first (the episode detail page). */
export async function listEpisodeOutputs(
  options: { episodeId: string },
  db: Queryable,
): Promise<EpisodeOutput[]> {
  const result = await db.query<EpisodeOutputRow>(
    `SELECT ${EPISODE_OUTPUT_COLUMNS} FROM cyclium_episode_outputs
      WHERE episode_id = $1 ORDER BY inserted_at, id`,
    [options.episodeId],
  );
  return result.rows.map(toEpisodeOutput);
}
