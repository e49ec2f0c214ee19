import type { Queryable } from "../db/index";
import { envScopeSql, SqlParams } from "../scope/index";
import { toFinding, type Finding, type FindingRow } from "./finding-row";
import { moveToClearedSql } from "./move-to-cleared-sql";

export interface ClearFindingOptions {
  findingKey: string;
  /** The env whose finding is cleared; null is the unset env. */
  env: string | null;
}

export type ClearFindingResult = { cleared: true; finding: Finding } | { cleared: false };

/** Sets the active finding of (key, env) to `cleared`; `cleared: false` when none was active. */
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
  return row ? { cleared: true, finding: toFinding(row) } : { cleared: false };
}
