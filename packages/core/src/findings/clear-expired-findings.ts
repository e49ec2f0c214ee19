import type { Queryable } from "../db/index";
import { toFinding, type Finding, type FindingRow } from "./finding-row";
import { moveToClearedSql } from "./move-to-cleared-sql";

// All envs at once: expiry is a property of the row, and the sweep runs once per cluster under a
// work claim (SPEC 12). MATERIALIZED so LIMIT applies once; SKIP LOCKED so a raise in progress
// is left for the next sweep instead of being waited for.
const SQL = `
WITH due AS MATERIALIZED (
  SELECT id FROM cyclium_findings
   WHERE status = 'active' AND expires_at < now()
   ORDER BY expires_at
   LIMIT $1
   FOR UPDATE SKIP LOCKED
),
gone AS (
  DELETE FROM cyclium_findings d USING due WHERE d.id = due.id RETURNING d.*
)
${moveToClearedSql()}`;

/** Clears up to `limit` active findings whose `expires_at` has passed (database clock). */
export async function clearExpiredFindings(
  options: { limit: number },
  db: Queryable,
): Promise<Finding[]> {
  const result = await db.query<FindingRow>(SQL, [options.limit]);
  return result.rows.map(toFinding);
}
