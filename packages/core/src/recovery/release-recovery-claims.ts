import type { Queryable } from "../db/index";
import type { RecoveryClaim } from "./claim-episodes-for-recovery";

/**
 * Gives recovery claims back inside the claiming transaction, for orphans whose work claim
 * turned out busy (their owner is alive). The transaction commits the rest of its batch; to
 * every other session these rows never looked claimed.
 */
const SQL = `
UPDATE cyclium_episodes AS e
   SET phase = r.phase
  FROM unnest($1::uuid[], $2::text[]) AS r(id, phase)
 WHERE e.id = r.id
   AND e.phase = 'recovering'`;

export async function releaseRecoveryClaims(
  claims: readonly RecoveryClaim[],
  db: Queryable,
): Promise<void> {
  if (claims.length === 0) return;
  await db.query(SQL, [
    claims.map((claim) => claim.id),
    claims.map((claim) => claim.previousPhase),
  ]);
}
