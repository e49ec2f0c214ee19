import type { Queryable } from "../../db/index";
import {
  EPISODE_ATTEMPT_COLUMNS,
  toEpisodeAttempt,
  type EpisodeAttempt,
  type EpisodeAttemptRow,
} from "./episode-attempt";

/**
 * The errors of an episode's attempts that did not complete, oldest attempt first. One row per
 * attempt (unique), so the list is as long as the episode's retries and restarts.
 */
export async function listEpisodeAttempts(
  options: { episodeId: string },
  db: Queryable,
): Promise<EpisodeAttempt[]> {
  const result = await db.query<EpisodeAttemptRow>(
    `SELECT ${EPISODE_ATTEMPT_COLUMNS} FROM cyclium_episode_attempts
      WHERE episode_id = $1 ORDER BY attempt, id`,
    [options.episodeId],
  );
  return result.rows.map(toEpisodeAttempt);
}
