import type { Queryable } from "../db/index";
import {
  lapsedClaimSql,
  liveClaimSql,
  stealClaimSetSql,
  takeClaimsSql,
} from "./claim-take-over-sql";

export interface AcquireClaimsRow {
  dedupe_key: string;
  attempt: number;
  stolen: boolean;
}

/**
 * `acquireClaim` (acquire-claim.ts) for many keys in one statement, key by key the same two arms
 * and the same guards, so each key's answer is the one a single acquire would have given:
 *
 * - `stolen` takes over the keys still `claimed` whose lease ran out (`steals + 1`);
 * - `taken` inserts the other keys, or takes over their `done`/`failed`/`expired` rows, skipping
 *   the keys with a live claim in the snapshot (busy without locking the row).
 *
 * Both arms re-check their guards under the row lock on the newest committed version, so a key
 * is won by exactly one of any number of concurrent acquirers, single or batched. Rows are locked
 * in key order in each arm (the ordered `FOR UPDATE` subselect, the ordered INSERT source), so
 * two batches with overlapping keys queue instead of deadlocking. Tables are reached by
 * `= ANY` of the batch's keys, as in start-episodes.ts: a per-key NOT EXISTS was planned as a
 * sequential scan there. Keys must be distinct (the caller answers repeats busy).
 * The rules' SQL is claim-take-over-sql.ts's, as acquireClaim's is.
 */
const SQL = `
WITH lapsed AS (
  SELECT dedupe_key FROM cyclium_work_claims
   WHERE dedupe_key = ANY($1::text[])
     AND ${lapsedClaimSql()}
   ORDER BY dedupe_key
     FOR UPDATE
),
stolen AS (
  UPDATE cyclium_work_claims c
     SET ${stealClaimSetSql({ alias: "c", owner: "$2", leaseSeconds: "$3" })}
    FROM lapsed l
   WHERE c.dedupe_key = l.dedupe_key
     AND ${lapsedClaimSql("c")}
  RETURNING c.dedupe_key, c.attempt
),
live AS (
  SELECT dedupe_key FROM cyclium_work_claims
   WHERE dedupe_key = ANY($1::text[])
     AND ${liveClaimSql()}
),
taken AS (
  ${takeClaimsSql({
    key: "k.dedupe_key",
    owner: "$2",
    leaseSeconds: "$3",
    source: `FROM unnest($1::text[]) AS k(dedupe_key)
   WHERE k.dedupe_key NOT IN (SELECT dedupe_key FROM stolen)
     AND k.dedupe_key NOT IN (SELECT dedupe_key FROM live)
   ORDER BY k.dedupe_key`,
  })}
  RETURNING c.dedupe_key, c.attempt
)
SELECT dedupe_key, attempt, true AS stolen FROM stolen
UNION ALL
SELECT dedupe_key, attempt, false AS stolen FROM taken`;

/**
 * Claims each of `dedupeKeys` (distinct) for `owner`; returns the rows won, keyed by dedupe key.
 * A key without a row is busy: someone holds a live lease on it.
 */
export async function acquireClaims(
  options: { dedupeKeys: readonly string[]; owner: string; leaseSeconds: number },
  db: Queryable,
): Promise<Map<string, AcquireClaimsRow>> {
  if (options.dedupeKeys.length === 0) return new Map();
  const result = await db.query<AcquireClaimsRow>(SQL, [
    options.dedupeKeys,
    options.owner,
    options.leaseSeconds,
  ]);
  return new Map(result.rows.map((row) => [row.dedupe_key, row]));
}
