import type { ClaimFence } from "../claims/index";

/**
 * The `fence` CTE that fenced writes select from: one row while the writer still holds the claim
 * at its attempt, none otherwise. FOR SHARE locks the claim row until the write commits, so a
 * concurrent steal (an UPDATE of that row) waits for the write, or the write re-checks the row the
 * steal left behind and finds its attempt stale: no interleaving lets a zombie write land after a
 * take-over. Without a fence (claims off) the CTE is one constant row.
 *
 * The placeholders are `$${first}`, `$${first + 1}` and `$${first + 2}`: key, owner, attempt.
 */
export function fenceCte(
  fence: ClaimFence | null,
  first: number,
): { sql: string; values: unknown[] } {
  if (fence === null) return { sql: "fence AS (SELECT 1 AS held)", values: [] };
  // The episode's own lease: the same test on its row. A steal or a recovery restart raises
  // `attempt`, an end, cancel or recovery clears `lease_until`; FOR SHARE orders this write against
  // them as it does against a claim row's take-over.
  if (fence.episodeId !== undefined) {
    return {
      sql: `fence AS (
  SELECT 1 AS held FROM cyclium_episodes
   WHERE id = $${first}::uuid AND executed_by = $${first + 1} AND attempt = $${first + 2}
     AND lease_until IS NOT NULL
   FOR SHARE)`,
      values: [fence.episodeId, fence.owner, fence.attempt],
    };
  }
  return {
    sql: `fence AS (
  SELECT 1 AS held FROM cyclium_work_claims
   WHERE dedupe_key = $${first} AND owner_node = $${first + 1} AND attempt = $${first + 2}
     AND state = 'claimed'
   FOR SHARE)`,
    values: [fence.dedupeKey, fence.owner, fence.attempt],
  };
}
