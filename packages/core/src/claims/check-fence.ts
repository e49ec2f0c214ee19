import type { Queryable } from "../db/index";
import type { ClaimFence } from "./work-claims";

const SQL = `
SELECT EXISTS (
  SELECT 1 FROM cyclium_work_claims
   WHERE dedupe_key = $1 AND owner_node = $2 AND attempt = $3 AND state = 'claimed'
) AS current`;

/**
 * True while the fence is still the claim's current holder. For a check before side effects
 * outside this database (SPEC 12, "fence before side effects"); writes to cyclium tables should
 * use the fenced statements instead, which check and write atomically.
 */
export async function checkFence(fence: ClaimFence, db: Queryable): Promise<boolean> {
  const result = await db.query<{ current: boolean }>(SQL, [
    fence.dedupeKey,
    fence.owner,
    fence.attempt,
  ]);
  return result.rows[0]?.current === true;
}
