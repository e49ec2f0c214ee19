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

/**
 * The id of the live (unarchived) episode holding `dedupeKey`, or undefined: what a deduplicated
 * fire answers with (the partial unique index on dedupe_key keeps at most one).
 */
export async function findLiveEpisodeId(
  dedupeKey: string,
  db: Queryable,
): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM cyclium_episodes WHERE dedupe_key = $1 AND archived_at IS NULL",
    [dedupeKey],
  );
  return rows[0]?.id;
}
