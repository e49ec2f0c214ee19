import type { Queryable } from "../../db/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { SqlParams } from "../../scope/index";
import {
  episodeSummaryColumns,
  toEpisodeSummary,
  type EpisodeSummary,
  type EpisodeSummaryRow,
} from "../../episodes/episode-row";
import { episodeFilterSql, type EpisodeListFilters } from "./episode-filter";

export interface ListEpisodesOptions extends KeysetPageOptions {
  db: Queryable;
  filters: EpisodeListFilters;
}

/**
 * One page of episodes, newest first, by keyset on (inserted_at, id): a page is stable while new
 * episodes arrive, and reading page 1,000 costs what page 1 does.
 */
export async function listEpisodes(
  options: ListEpisodesOptions,
): Promise<KeysetPage<EpisodeSummary>> {
  const params = new SqlParams();
  const walk = keysetWalk(options, params, { at: "inserted_at", id: "id", idType: "uuid" });
  const where = [episodeFilterSql(options.filters, params)];
  if (walk.after !== null) where.push(walk.after);
  // source_env leads the ORDER BY although every row of the page has the same env: see the
  // migration 20261130000000_console_episode_list_indexes for why the planner needs it.
  const { rows } = await options.db.query<EpisodeSummaryRow & { cursor_at: string }>(
    `SELECT ${episodeSummaryColumns()}, ${walk.cursorAt} AS cursor_at
       FROM cyclium_episodes
      WHERE ${where.join(" AND ")}
      ORDER BY source_env ${walk.leadOrder}, inserted_at ${walk.order}, id ${walk.order}
      LIMIT ${walk.limit}`,
    params.values,
  );
  return walk.page(rows.map((row) => ({ item: toEpisodeSummary(row), cursorAt: row.cursor_at })));
}
