import type { Queryable } from "../db/index";
import {
  lapsedClaimSql,
  liveClaimSql,
  stealClaimSetSql,
  takeClaimsSql,
} from "./claim-take-over-sql";

export interface AcquireClaimRow {
  attempt: number;
  stolen: boolean;
  inserted: boolean;
}

/**
 * One statement, two arms, so a steal can be told from a fresh take-over without a race:
 *
 * - `stolen` takes over a row that is still `claimed` but whose lease ran out. UPDATE locks the
 *   row and, under READ COMMITTED, re-checks its WHERE on the newest committed version, so two
 *   thieves cannot both win and a row completed meanwhile is not reported as stolen.
 * - `taken` runs only when nothing was stolen: it inserts a new claim, or (ON CONFLICT) takes over
 *   a `done`/`failed`/`expired` row, again re-checked on the locked newest version.
 *
 * Reading the old state in a plain CTE or RETURNING subselect would instead see the statement's
 * snapshot, which can be older than the row the upsert actually locked and changed.
 * `attempt` grows on every take-over; lease times use the database clock (`now()`) only.
 * The take-over rules themselves (the steal's SET, the upsert, lapsed and live) are the fragments
 * of claim-take-over-sql.ts, shared with acquire-claims.ts and episodes/start-episodes.ts.
 *
 * The second NOT EXISTS answers the common busy case (a live claim held elsewhere, which N-1
 * nodes hit for every event) from the snapshot, without locking the row: ON CONFLICT DO UPDATE
 * locks the conflicting row before it evaluates its WHERE, and that lock is WAL-logged, so every
 * busy answer cost a commit flush and queued behind the others (600-800 busy acquires/s at 1-16
 * clients on the embedded server, against ~900-3,500 single-row UPDATEs/s). It can only turn a
 * success into busy (a claim released after the snapshot), never the reverse: the upsert still
 * re-checks under the row lock.
 *
 * Busy is also the answer for a row inserted after this statement's snapshot that is already
 * `claimed` and lapsed, which needs a lease shorter than the round trip.
 */
const SQL = `
WITH stolen AS (
  UPDATE cyclium_work_claims
     SET ${stealClaimSetSql({ owner: "$2", leaseSeconds: "$3" })}
   WHERE dedupe_key = $1
     AND ${lapsedClaimSql()}
  RETURNING attempt
),
taken AS (
  ${takeClaimsSql({
    key: "$1",
    owner: "$2",
    leaseSeconds: "$3",
    source: `WHERE NOT EXISTS (SELECT 1 FROM stolen)
     AND NOT EXISTS (
           SELECT 1 FROM cyclium_work_claims
            WHERE dedupe_key = $1 AND ${liveClaimSql()})`,
  })}
  RETURNING c.attempt, (c.xmax = 0) AS inserted
)
SELECT attempt, true AS stolen, false AS inserted FROM stolen
UNION ALL
SELECT attempt, false AS stolen, inserted FROM taken`;

/** Claims `dedupeKey` for `owner`; no row back means someone else holds a live lease (busy). */
export async function acquireClaim(
  options: { dedupeKey: string; owner: string; leaseSeconds: number },
  db: Queryable,
): Promise<AcquireClaimRow | null> {
  const result = await db.query<AcquireClaimRow>(SQL, [
    options.dedupeKey,
    options.owner,
    options.leaseSeconds,
  ]);
  return result.rows[0] ?? null;
}
