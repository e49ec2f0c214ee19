import type { Queryable } from "../db/index";

// The lapsed rows are picked in a MATERIALIZED CTE so LIMIT applies once: as an `id IN (...)`
// subquery the planner may rescan it per outer row and expire more than `limit`. SKIP LOCKED lets
// several nodes sweep at once without queueing behind each other.
const SQL = `
WITH lapsed AS MATERIALIZED (
  SELECT id FROM cyclium_work_claims
   WHERE state = 'claimed' AND lease_until < now()
   ORDER BY lease_until
   LIMIT $1
   FOR UPDATE SKIP LOCKED
)
UPDATE cyclium_work_claims c
   SET state = 'expired',
       updated_at = now()
  FROM lapsed
 WHERE c.id = lapsed.id
RETURNING c.dedupe_key`;

/** Marks up to `limit` lapsed `claimed` rows `expired` and returns their keys. */
export async function reclaimExpiredClaims(
  options: { limit: number },
  db: Queryable,
): Promise<string[]> {
  const result = await db.query<{ dedupe_key: string }>(SQL, [options.limit]);
  return result.rows.map((row) => row.dedupe_key);
}
