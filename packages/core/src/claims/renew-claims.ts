import type { Queryable } from "../db/index";
import type { RenewManyClaimsOptions, RenewedClaim } from "./work-claims";

// One statement for every claim a node holds: the lease keeper sends it once per tick. The
// same conditions as renewClaim, per (key, attempt) pair; a NULL attempt skips the attempt check.
// Only lease_until is set (see renewClaim).
const SQL = `
UPDATE cyclium_work_claims AS c
   SET lease_until = now() + make_interval(secs => $2)
  FROM unnest($3::varchar[], $4::int[]) AS held(dedupe_key, attempt)
 WHERE c.dedupe_key = held.dedupe_key
   AND c.owner_node = $1
   AND c.state = 'claimed'
   AND (held.attempt IS NULL OR c.attempt = held.attempt)
RETURNING c.dedupe_key, c.attempt`;

/** Extends the leases the owner still holds; answers the claims it renewed. */
export async function renewClaims(
  options: RenewManyClaimsOptions,
  db: Queryable,
): Promise<RenewedClaim[]> {
  if (options.claims.length === 0) return [];
  const keys: string[] = [];
  const attempts: (number | null)[] = [];
  for (const claim of options.claims) {
    keys.push(claim.dedupeKey);
    attempts.push(claim.attempt ?? null);
  }
  const result = await db.query<{ dedupe_key: string; attempt: number }>(SQL, [
    options.owner,
    options.leaseSeconds,
    keys,
    attempts,
  ]);
  return result.rows.map((row) => ({ dedupeKey: row.dedupe_key, attempt: row.attempt }));
}
