import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import { findingColumns, toFinding, type Finding, type FindingRow } from "./finding-row";

export interface FindingFilters {
  findingKey?: string;
  /** One class or any of several. */
  class?: string | readonly string[];
  severity?: string | readonly string[];
  subject?: string;
  actorId?: string;
  episodeId?: string;
  /** Default 500: findings are few per key, and an unbounded list is a bug waiting for data. */
  limit?: number;
}

/** Active findings of exactly one env (strict: the unset env matches only NULL rows). */
export async function listActiveFindings(
  options: { filters: FindingFilters; env: string | null },
  db: Queryable,
): Promise<Finding[]> {
  const { filters } = options;
  const params = new SqlParams();
  const where = ["status = 'active'", envScopeSql("env", options.env, params)];
  const anyOf = (column: string, value: string | readonly string[] | undefined): void => {
    if (value === undefined) return;
    where.push(
      `${column} = ANY(${params.add(typeof value === "string" ? [value] : [...value])}::text[])`,
    );
  };
  if (filters.findingKey !== undefined)
    where.push(`finding_key = ${params.add(filters.findingKey)}`);
  anyOf("class", filters.class);
  anyOf("severity", filters.severity);
  if (filters.subject !== undefined) where.push(`subject = ${params.add(filters.subject)}`);
  if (filters.actorId !== undefined) where.push(`actor_id = ${params.add(filters.actorId)}`);
  if (filters.episodeId !== undefined) where.push(`episode_id = ${params.add(filters.episodeId)}`);
  const limit = params.add(filters.limit ?? 500);
  const result = await db.query<FindingRow>(
    `SELECT ${findingColumns()} FROM cyclium_findings
      WHERE ${where.join(" AND ")}
      ORDER BY updated_at DESC, id DESC
      LIMIT ${limit}`,
    params.values,
  );
  return result.rows.map(toFinding);
}
