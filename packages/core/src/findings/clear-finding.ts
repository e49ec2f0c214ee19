import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import { toFinding, type Finding, type FindingRow } from "./finding-row";
import { moveToClearedSql } from "./move-to-cleared-sql";

export interface ClearFindingOptions {
  findingKey: string;
  /** The env whose finding is cleared; null is the unset env. */
  env: string | null;
}

export type ClearFindingResult = { kind: "cleared"; finding: Finding } | { kind: "not_found" };

/** Sets the active finding of (key, env) to `cleared`; `not_found` when none was active. */
export async function clearFinding(
  options: ClearFindingOptions,
  db: Queryable,
): Promise<ClearFindingResult> {
  const params = new SqlParams([options.findingKey]);
  const sql = `
WITH gone AS (
  DELETE FROM cyclium_findings
   WHERE finding_key = $1 AND status = 'active' AND ${envScopeSql("env", options.env, params)}
  RETURNING *
)
${moveToClearedSql()}`;
  const result = await db.query<FindingRow>(sql, params.values);
  const row = result.rows[0];
  return row ? { kind: "cleared", finding: toFinding(row) } : { kind: "not_found" };
}
