import type { Queryable } from "../db/index";
import type { ClaimFence } from "./work-claims";

const SQL = `
SELECT EXISTS (
  SELECT 1 FROM cyclium_work_claims
   WHERE dedupe_key = $1 AND owner_node = $2 AND attempt = $3 AND state = 'claimed'
) AS current`;

/** The episode's own lease (SPEC section 4): the same test on the episode row. */
const IN_ROW_SQL = `
SELECT EXISTS (
  SELECT 1 FROM cyclium_episodes
   WHERE id = $1::uuid AND executed_by = $2 AND attempt = $3 AND lease_until IS NOT NULL
) AS current`;

/**
 * True while the fence is still the claim's current holder. For a check before side effects
 * outside this database (SPEC 12, "fence before side effects"); writes to cyclium tables should
 * use the fenced statements instead, which check and write atomically.
 */
export async function checkFence(fence: ClaimFence, db: Queryable): Promise<boolean> {
  const result = await db.query<{ current: boolean }>(
    fence.episodeId === undefined ? SQL : IN_ROW_SQL,
    [fence.episodeId ?? fence.dedupeKey, fence.owner, fence.attempt],
  );
  return result.rows[0]?.current === true;
}
