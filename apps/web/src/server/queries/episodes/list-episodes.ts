import { envScopeSql, SqlParams } from "@cyclium/core/scope";
import type { TQueryable } from "../queryable";
import {
  cursorAtSql,
  decodeCursor,
  pageFromRows,
  type TPageDirection,
  type TPageInfo,
} from "../keyset-cursor";

export interface TEpisodeListFilters {
  /** Strict (SPEC section 8): `null` is the unset env and matches NULL rows only. */
  env: string | null;
  actorId?: string | undefined;
  expectationId?: string | undefined;
  status?: string | undefined;
  triggerType?: string | undefined;
  stack?: string | undefined;
  /** Inclusive lower and exclusive upper bound on inserted_at. */
  from?: Date | undefined;
  to?: Date | undefined;
  /** Archived episodes are hidden unless asked for; then only they are listed. */
  archived?: boolean | undefined;
}

export interface TEpisodeListItem {
  id: string;
  actorId: string;
  expectationId: string;
  status: string;
  phase: string | null;
  triggerType: string;
  attempt: number;
  turnsUsed: number;
  tokensUsed: number;
  sourceNode: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  executedBy: string | null;
  errorClass: string | null;
  insertedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  archivedAt: string | null;
}

export interface TEpisodeListPage {
  items: TEpisodeListItem[];
  page: TPageInfo;
}

interface EpisodeListRow {
  id: string;
  actor_id: string;
  expectation_id: string;
  status: string;
  phase: string | null;
  trigger_type: string;
  attempt: number;
  turns_used: number;
  tokens_used: string;
  source_node: string | null;
  source_stack: string | null;
  source_env: string | null;
  executed_by: string | null;
  error_class: string | null;
  inserted_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  archived_at: Date | null;
  cursor_at: string;
}

/** Builds the WHERE clause; exported for the benchmark's EXPLAIN. */
export function episodeFilterSql(filters: TEpisodeListFilters, params: SqlParams): string {
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
export async function listEpisodes(options: {
  db: TQueryable;
  filters: TEpisodeListFilters;
  cursor?: string | undefined;
  direction?: TPageDirection | undefined;
  limit: number;
}): Promise<TEpisodeListPage> {
  const direction = options.direction ?? "older";
  const params = new SqlParams();
  let where = episodeFilterSql(options.filters, params);
  const cursor = options.cursor === undefined ? null : decodeCursor(options.cursor);
  if (cursor !== null) {
    const at = `(${params.add(cursor.at)}::timestamp AT TIME ZONE 'UTC')`;
    const id = `${params.add(cursor.id)}::uuid`;
    where += ` AND (inserted_at, id) ${direction === "older" ? "<" : ">"} (${at}, ${id})`;
  }
  // source_env leads the ORDER BY although every row of the page has the same env: see the
  // migration 20261130000000_console_episode_list_indexes for why the planner needs it.
  const order = direction === "older" ? "DESC" : "ASC";
  const envOrder = direction === "older" ? "ASC" : "DESC";
  const { rows } = await options.db.query<EpisodeListRow>(
    `SELECT id, actor_id, expectation_id, status, phase, trigger_type, attempt, turns_used,
            tokens_used, source_node, source_stack, source_env, executed_by, error_class,
            inserted_at, started_at, finished_at, archived_at,
            ${cursorAtSql("inserted_at")} AS cursor_at
       FROM cyclium_episodes
      WHERE ${where}
      ORDER BY source_env ${envOrder}, inserted_at ${order}, id ${order}
      LIMIT ${params.add(options.limit + 1)}`,
    params.values,
  );
  const { rows: kept, page } = pageFromRows(
    rows.map((row) => ({ ...toListItem(row), cursorAt: row.cursor_at })),
    { limit: options.limit, direction, hasCursor: cursor !== null },
  );
  return { items: kept.map(({ cursorAt: _cursorAt, ...item }) => item), page };
}

function toListItem(row: EpisodeListRow): TEpisodeListItem {
  return {
    id: row.id,
    actorId: row.actor_id,
    expectationId: row.expectation_id,
    status: row.status,
    phase: row.phase,
    triggerType: row.trigger_type,
    attempt: row.attempt,
    turnsUsed: row.turns_used,
    tokensUsed: Number(row.tokens_used),
    sourceNode: row.source_node,
    sourceStack: row.source_stack,
    sourceEnv: row.source_env,
    executedBy: row.executed_by,
    errorClass: row.error_class,
    insertedAt: row.inserted_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    archivedAt: row.archived_at?.toISOString() ?? null,
  };
}
