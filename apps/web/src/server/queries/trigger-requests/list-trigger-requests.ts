import { envScopeSql, SqlParams } from "@cyclium/core/scope";
import type { TQueryable } from "../queryable";
import {
  cursorAtSql,
  decodeCursor,
  pageFromRows,
  type TPageDirection,
  type TPageInfo,
} from "../keyset-cursor";
import { listClusterModes } from "../nodes/list-node-modes";
import { explainPendingRequest, type TPendingReason } from "./explain-pending-request";

export interface TTriggerRequestItem {
  id: string;
  episodeId: string;
  actorId: string;
  expectationId: string;
  status: string;
  sourceNode: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  claimedBy: string | null;
  claimedAt: string | null;
  completedAt: string | null;
  insertedAt: string;
  /** Database clock: how long it has existed. */
  ageMs: number;
  episodeStatus: string | null;
  /** Only for pending requests: why no worker has taken it yet. */
  pendingReason: TPendingReason | null;
}

export interface TTriggerRequestFilters {
  env: string | null;
  status?: string | undefined;
  actorId?: string | undefined;
}

interface RequestRow {
  id: string;
  episode_id: string;
  actor_id: string;
  expectation_id: string;
  status: string;
  source_node: string | null;
  source_stack: string | null;
  source_env: string | null;
  claimed_by: string | null;
  claimed_at: Date | null;
  completed_at: Date | null;
  inserted_at: Date;
  age_ms: number;
  episode_status: string | null;
  cursor_at: string;
}

export async function listTriggerRequests(options: {
  db: TQueryable;
  filters: TTriggerRequestFilters;
  cursor?: string | undefined;
  direction?: TPageDirection | undefined;
  limit: number;
}): Promise<{ items: TTriggerRequestItem[]; page: TPageInfo; pending: number; claimed: number }> {
  const direction = options.direction ?? "older";
  const params = new SqlParams();
  const where = [envScopeSql("r.source_env", options.filters.env, params)];
  if (options.filters.status !== undefined) {
    where.push(`r.status = ${params.add(options.filters.status)}`);
  }
  if (options.filters.actorId !== undefined) {
    where.push(`r.actor_id = ${params.add(options.filters.actorId)}`);
  }
  const cursor = options.cursor === undefined ? null : decodeCursor(options.cursor);
  if (cursor !== null) {
    const at = `(${params.add(cursor.at)}::timestamp AT TIME ZONE 'UTC')`;
    where.push(
      `(r.inserted_at, r.id) ${direction === "older" ? "<" : ">"} (${at}, ${params.add(cursor.id)}::bigint)`,
    );
  }
  const order = direction === "older" ? "DESC" : "ASC";
  // Env first in the ORDER BY, to walk cyclium_trigger_requests_env_inserted_at_id_idx (see
  // migration 20261130000100).
  const envOrder = direction === "older" ? "ASC" : "DESC";
  const countParams = new SqlParams();
  const countScope = envScopeSql("source_env", options.filters.env, countParams);
  const [{ rows }, counts, cluster] = await Promise.all([
    options.db.query<RequestRow>(
      `SELECT r.id::text, r.episode_id, r.actor_id, r.expectation_id, r.status, r.source_node,
              r.source_stack, r.source_env, r.claimed_by, r.claimed_at, r.completed_at,
              r.inserted_at, e.status AS episode_status,
              greatest(0, extract(epoch FROM now() - r.inserted_at) * 1000)::float8 AS age_ms,
              ${cursorAtSql("r.inserted_at")} AS cursor_at
         FROM cyclium_trigger_requests r
         LEFT JOIN cyclium_episodes e ON e.id = r.episode_id
        WHERE ${where.join(" AND ")}
        ORDER BY r.source_env ${envOrder}, r.inserted_at ${order}, r.id ${order}
        LIMIT ${params.add(options.limit + 1)}`,
      params.values,
    ),
    // Open requests only (index on (status, inserted_at)): completed ones are history.
    options.db.query<{ pending: number; claimed: number }>(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE status = 'claimed')::int AS claimed
         FROM cyclium_trigger_requests
        WHERE status IN ('pending', 'claimed') AND ${countScope}`,
      countParams.values,
    ),
    listClusterModes({ db: options.db }),
  ]);
  const { rows: kept, page } = pageFromRows(
    rows.map((row) => ({
      id: row.id,
      cursorAt: row.cursor_at,
      episodeId: row.episode_id,
      actorId: row.actor_id,
      expectationId: row.expectation_id,
      status: row.status,
      sourceNode: row.source_node,
      sourceStack: row.source_stack,
      sourceEnv: row.source_env,
      claimedBy: row.claimed_by,
      claimedAt: row.claimed_at?.toISOString() ?? null,
      completedAt: row.completed_at?.toISOString() ?? null,
      insertedAt: row.inserted_at.toISOString(),
      ageMs: Math.round(row.age_ms),
      episodeStatus: row.episode_status,
      pendingReason:
        row.status === "pending"
          ? explainPendingRequest(
              { actorId: row.actor_id, sourceEnv: row.source_env, ageMs: row.age_ms },
              cluster,
            )
          : null,
    })),
    { limit: options.limit, direction, hasCursor: cursor !== null },
  );
  return {
    items: kept.map(({ cursorAt: _cursorAt, ...item }) => item),
    page,
    pending: counts.rows[0]?.pending ?? 0,
    claimed: counts.rows[0]?.claimed ?? 0,
  };
}
