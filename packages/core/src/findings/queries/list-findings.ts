import type { Queryable } from "../../db/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import {
  findingColumns,
  toFinding,
  type Finding,
  type FindingRow,
  type FindingStatus,
} from "../finding-row";

export interface FindingListFilters {
  env: string | null;
  status: FindingStatus;
  class?: string | undefined;
  severity?: string | undefined;
}

export interface ListFindingsOptions extends KeysetPageOptions {
  db: Queryable;
  filters: FindingListFilters;
}

/** Findings of one env and status, most recently raised or cleared first. */
export async function listFindings(options: ListFindingsOptions): Promise<KeysetPage<Finding>> {
  const params = new SqlParams();
  const walk = keysetWalk(options, params, { at: "updated_at", id: "id", idType: "uuid" });
  const where = [
    envScopeSql("env", options.filters.env, params),
    `status = ${params.add(options.filters.status)}`,
  ];
  if (options.filters.class !== undefined) {
    where.push(`class = ${params.add(options.filters.class)}`);
  }
  if (options.filters.severity !== undefined) {
    where.push(`severity = ${params.add(options.filters.severity)}`);
  }
  if (walk.after !== null) where.push(walk.after);
  // env and status lead the ORDER BY to walk cyclium_findings_env_status_updated_at_id_idx.
  const { rows } = await options.db.query<FindingRow & { cursor_at: string }>(
    `SELECT ${findingColumns()}, ${walk.cursorAt} AS cursor_at
       FROM cyclium_findings
      WHERE ${where.join(" AND ")}
      ORDER BY env ${walk.leadOrder}, status ${walk.leadOrder}, updated_at ${walk.order},
               id ${walk.order}
      LIMIT ${walk.limit}`,
    params.values,
  );
  return walk.page(rows.map((row) => ({ item: toFinding(row), cursorAt: row.cursor_at })));
}

export interface ActiveFindingsSummary {
  total: number;
  bySeverity: Record<string, number>;
  latest: Finding[];
}

/** For the Overview: how many findings are active in the env, and the most recent few. */
export async function summariseActiveFindings(options: {
  db: Queryable;
  env: string | null;
  latest: number;
}): Promise<ActiveFindingsSummary> {
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
