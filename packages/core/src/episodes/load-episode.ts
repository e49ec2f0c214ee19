import type { Queryable } from "../db/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "./episode-row";

/** One episode by id; undefined when there is none. */
export async function loadEpisode(episodeId: string, db: Queryable): Promise<Episode | undefined> {
  const { rows } = await db.query<EpisodeRow>(
    `SELECT ${episodeColumns()} FROM cyclium_episodes WHERE id = $1`,
    [episodeId],
  );
  const row = rows[0];
  return row === undefined ? undefined : toEpisode(row);
}
