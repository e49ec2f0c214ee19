import { envScopeSql, SqlParams } from "@cyclium/core/scope";
import type { TQueryable } from "../queryable";
import {
  cursorAtSql,
  decodeCursor,
  pageFromRows,
  type TPageDirection,
  type TPageInfo,
} from "../keyset-cursor";

export interface TFindingItem {
  id: string;
  findingKey: string;
  class: string;
  severity: string;
  subject: string | null;
  summary: string | null;
  data: unknown;
  status: string;
  env: string | null;
  episodeId: string | null;
  actorId: string | null;
  raisedCount: number;
  expiresAt: string | null;
  clearedAt: string | null;
  insertedAt: string;
  updatedAt: string;
}

export interface TFindingFilters {
  env: string | null;
  /** `active` (default) or `cleared`. */
  status: "active" | "cleared";
  class?: string | undefined;
  severity?: string | undefined;
}

interface FindingRow {
  id: string;
  finding_key: string;
  class: string;
  severity: string;
  subject: string | null;
  summary: string | null;
  data: unknown;
  status: string;
  env: string | null;
  episode_id: string | null;
  actor_id: string | null;
  raised_count: number;
  expires_at: Date | null;
  cleared_at: Date | null;
  inserted_at: Date;
  updated_at: Date;
  cursor_at: string;
}

/** Findings of one env and status, most recently raised or cleared first. */
export async function listFindings(options: {
  db: TQueryable;
  filters: TFindingFilters;
  cursor?: string | undefined;
  direction?: TPageDirection | undefined;
  limit: number;
}): Promise<{ items: TFindingItem[]; page: TPageInfo }> {
  const direction = options.direction ?? "older";
  const params = new SqlParams();
  const where = [
    envScopeSql("env", options.filters.env, params),
    `status = ${params.add(options.filters.status)}`,
  ];
  if (options.filters.class !== undefined)
    where.push(`class = ${params.add(options.filters.class)}`);
  if (options.filters.severity !== undefined) {
    where.push(`severity = ${params.add(options.filters.severity)}`);
  }
  const cursor = options.cursor === undefined ? null : decodeCursor(options.cursor);
  if (cursor !== null) {
    const at = `(${params.add(cursor.at)}::timestamp AT TIME ZONE 'UTC')`;
    where.push(
      `(updated_at, id) ${direction === "older" ? "<" : ">"} (${at}, ${params.add(cursor.id)}::uuid)`,
    );
  }
  const order = direction === "older" ? "DESC" : "ASC";
  const envOrder = direction === "older" ? "ASC" : "DESC";
  // env and status lead the ORDER BY to walk cyclium_findings_env_status_updated_at_id_idx.
  const { rows } = await options.db.query<FindingRow>(
    `SELECT id, finding_key, class, severity, subject, summary, data, status, env, episode_id,
            actor_id, raised_count, expires_at, cleared_at, inserted_at, updated_at,
            ${cursorAtSql("updated_at")} AS cursor_at
       FROM cyclium_findings
      WHERE ${where.join(" AND ")}
      ORDER BY env ${envOrder}, status ${envOrder}, updated_at ${order}, id ${order}
      LIMIT ${params.add(options.limit + 1)}`,
    params.values,
  );
  const { rows: kept, page } = pageFromRows(
    rows.map((row) => ({ ...toFindingItem(row), cursorAt: row.cursor_at })),
    { limit: options.limit, direction, hasCursor: cursor !== null },
  );
  return { items: kept.map(({ cursorAt: _cursorAt, ...item }) => item), page };
}

export function toFindingItem(row: Omit<FindingRow, "cursor_at">): TFindingItem {
  return {
    id: row.id,
    findingKey: row.finding_key,
    class: row.class,
    severity: row.severity,
    subject: row.subject,
    summary: row.summary,
    data: row.data,
    status: row.status,
    env: row.env,
    episodeId: row.episode_id,
    actorId: row.actor_id,
    raisedCount: row.raised_count,
    expiresAt: row.expires_at?.toISOString() ?? null,
    clearedAt: row.cleared_at?.toISOString() ?? null,
    insertedAt: row.inserted_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export interface TActiveFindingsSummary {
  total: number;
  bySeverity: Record<string, number>;
  latest: TFindingItem[];
}

/** For the Overview: how many findings are active in the env, and the most recent few. */
export async function summariseActiveFindings(options: {
  db: TQueryable;
  env: string | null;
  latest: number;
}): Promise<TActiveFindingsSummary> {
  const params = new SqlParams();
  const scope = envScopeSql("env", options.env, params);
  const [counts, latest] = await Promise.all([
    options.db.query<{ severity: string; count: number }>(
      `SELECT severity, count(*)::int AS count FROM cyclium_findings
        WHERE ${scope} AND status = 'active' GROUP BY severity`,
      params.values,
    ),
    listFindings({
      db: options.db,
      filters: { env: options.env, status: "active" },
      limit: options.latest,
    }),
  ]);
  const bySeverity: Record<string, number> = {};
  let total = 0;
  for (const row of counts.rows) {
    bySeverity[row.severity] = row.count;
    total += row.count;
  }
  return { total, bySeverity, latest: latest.items };
}
