import type { Queryable } from "../../db/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import {
  episodeSummaryColumns,
  toEpisodeSummary,
  type EpisodeStatus,
  type EpisodeSummary,
  type EpisodeSummaryRow,
  type TriggerType,
} from "../episode-row";

export interface EpisodeListFilters {
  /** Strict (SPEC section 8): `null` is the unset env and matches NULL rows only. */
  env: string | null;
  actorId?: string | undefined;
  expectationId?: string | undefined;
  status?: EpisodeStatus | undefined;
  triggerType?: TriggerType | undefined;
  stack?: string | undefined;
  /** Inclusive lower and exclusive upper bound on inserted_at. */
  from?: Date | undefined;
  to?: Date | undefined;
  /** Archived episodes are hidden unless asked for; then only they are listed. */
  archived?: boolean | undefined;
}

export interface ListEpisodesOptions extends KeysetPageOptions {
  db: Queryable;
  filters: EpisodeListFilters;
}

/** Builds the WHERE clause; exported for the benchmark's EXPLAIN. */
export function episodeFilterSql(filters: EpisodeListFilters, params: SqlParams): string {
  const where = [envScopeSql("source_env", filters.env, params)];
  // Equality filters line up with the (source_env, <column>, inserted_at, id) indexes, so every
  // combination walks one index in order and stops after `limit` rows (see the migration and
  // apps/web/bench/episodes-list-bench.ts for the figures).
  if (filters.status !== undefined) where.push(`status = ${params.add(filters.status)}`);
  if (filters.actorId !== undefined) where.push(`actor_id = ${params.add(filters.actorId)}`);
  if (filters.expectationId !== undefined) {
    where.push(`expectation_id = ${params.add(filters.expectationId)}`);
  }
  if (filters.triggerType !== undefined) {
    where.push(`trigger_type = ${params.add(filters.triggerType)}`);
  }
  if (filters.stack !== undefined) where.push(`source_stack = ${params.add(filters.stack)}`);
  if (filters.from !== undefined) where.push(`inserted_at >= ${params.add(filters.from)}`);
  if (filters.to !== undefined) where.push(`inserted_at < ${params.add(filters.to)}`);
  where.push(filters.archived === true ? "archived_at IS NOT NULL" : "archived_at IS NULL");
  return where.join(" AND ");
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
