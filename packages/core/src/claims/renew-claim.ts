import type { Queryable } from "../db/index";

// A lapsed lease is still renewable while nobody took it over: the row is ours until then.
// Only lease_until changes, and it is in no index: with the table's free page room (fillfactor
// 80) a renewal is a HOT update. updated_at is the claim's last change of state, not of lease.
// `$4` NULL skips the attempt check for callers that did not keep their attempt.
const SQL = `
UPDATE cyclium_work_claims
   SET lease_until = now() + make_interval(secs => $3)
 WHERE dedupe_key = $1
   AND owner_node = $2
   AND state = 'claimed'
   AND ($4::int IS NULL OR attempt = $4::int)
RETURNING lease_until`;

/** Extends the lease; false when the caller no longer owns the claim. */
export async function renewClaim(
  options: { dedupeKey: string; owner: string; leaseSeconds: number; attempt?: number | undefined },
  db: Queryable,
): Promise<boolean> {
  const result = await db.query(SQL, [
    options.dedupeKey,
    options.owner,
    options.leaseSeconds,
    options.attempt ?? null,
  ]);
  return (result.rowCount ?? 0) > 0;
}
