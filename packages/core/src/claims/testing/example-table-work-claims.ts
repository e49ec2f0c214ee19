// The example claim adapter of docs/work-claims.md: claims in a table of its own (any PostgreSQL
// database, not necessarily Cyclium's), loaded with CYCLIUM_WORK_CLAIMS=<path to this module>.
// It passes describeWorkClaimsConformance (example-table-work-claims.conformance.integration
// .test.ts). It does not declare usesSqlFence: its rows are not cyclium_work_claims, so the
// runtime checks `holds` before side effects instead of fencing inside its own statements.
import type { Queryable } from "../../db/index";
import type { WorkClaimsFactoryDeps } from "../load-work-claims";
import { validateClaimInput, validateReclaimLimit } from "../validate-claim-input";
import type {
  AcquireClaimOptions,
  AcquireClaimResult,
  ClaimFence,
  CompleteClaimOptions,
  FailClaimOptions,
  ReclaimExpiredOptions,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimOptions,
  RenewClaimResult,
  WorkClaims,
} from "../work-claims";

const NOT_OWNER = { ok: false, error: "not_owner" } as const;

export const EXAMPLE_CLAIMS_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS example_work_claims (
  dedupe_key  varchar(512) PRIMARY KEY,
  state       text NOT NULL,
  owner_node  varchar(255) NOT NULL,
  lease_until timestamptz NOT NULL,
  attempt     int NOT NULL DEFAULT 1,
  stolen      boolean NOT NULL DEFAULT false,
  error_detail text
)`;

// One statement: insert, or take over a released row or a lapsed claimed one. ON CONFLICT DO
// UPDATE locks the row and re-checks its WHERE on the newest committed version, so of concurrent
// acquirers exactly one gets a row back. `stolen` is computed from the row it replaced.
const ACQUIRE = `
INSERT INTO example_work_claims AS c (dedupe_key, state, owner_node, lease_until)
VALUES ($1, 'claimed', $2, now() + make_interval(secs => $3))
ON CONFLICT (dedupe_key) DO UPDATE
   SET state = 'claimed', owner_node = EXCLUDED.owner_node, lease_until = EXCLUDED.lease_until,
       attempt = c.attempt + 1, stolen = (c.state = 'claimed'), error_detail = NULL
 WHERE c.state <> 'claimed' OR c.lease_until < now()
RETURNING attempt, stolen`;

// Owner, state and (when given) attempt in every write: the fencing rule of the contract.
const OWNED = `dedupe_key = $1 AND owner_node = $2 AND state = 'claimed'
   AND ($3::int IS NULL OR attempt = $3::int)`;

export class ExampleTableWorkClaims implements WorkClaims {
  constructor(private readonly db: Queryable) {}

  async acquire(options: AcquireClaimOptions): Promise<AcquireClaimResult> {
    validateClaimInput(options);
    const { rows } = await this.db.query<{ attempt: number; stolen: boolean }>(ACQUIRE, [
      options.dedupeKey,
      options.owner,
      options.leaseSeconds,
    ]);
    const row = rows[0];
    return row
      ? { ok: true, attempt: row.attempt, stolen: row.stolen }
      : { ok: false, error: "busy" };
  }

  async renew(options: RenewClaimOptions): Promise<RenewClaimResult> {
    validateClaimInput(options);
    const result = await this.db.query(
      `UPDATE example_work_claims SET lease_until = now() + make_interval(secs => $4)
        WHERE ${OWNED}`,
      [options.dedupeKey, options.owner, options.attempt ?? null, options.leaseSeconds],
    );
    return (result.rowCount ?? 0) > 0 ? { ok: true } : NOT_OWNER;
  }

  complete(options: CompleteClaimOptions): Promise<ReleaseClaimResult> {
    return this.release(options, "done", null);
  }

  fail(options: FailClaimOptions): Promise<ReleaseClaimResult> {
    return this.release(options, "failed", options.errorDetail);
  }

  async reclaimExpired(options: ReclaimExpiredOptions): Promise<ReclaimExpiredResult> {
    validateReclaimLimit(options.limit);
    // SKIP LOCKED: rows another sweep (or an acquire) is changing are left for the next call.
    const { rows } = await this.db.query<{ dedupe_key: string }>(
      `UPDATE example_work_claims SET state = 'expired'
        WHERE dedupe_key IN (
          SELECT dedupe_key FROM example_work_claims
           WHERE state = 'claimed' AND lease_until < now()
           LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING dedupe_key`,
      [options.limit],
    );
    return { expiredKeys: rows.map((row) => row.dedupe_key) };
  }

  async holds(fence: ClaimFence): Promise<boolean> {
    const { rows } = await this.db.query<{ held: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM example_work_claims WHERE ${OWNED}) AS held`,
      [fence.dedupeKey, fence.owner, fence.attempt],
    );
    return rows[0]?.held === true;
  }

  private async release(
    options: CompleteClaimOptions,
    state: "done" | "failed",
    errorDetail: string | null,
  ): Promise<ReleaseClaimResult> {
    validateClaimInput(options);
    const result = await this.db.query(
      `UPDATE example_work_claims SET state = $4, error_detail = $5 WHERE ${OWNED}`,
      [options.dedupeKey, options.owner, options.attempt ?? null, state, errorDetail],
    );
    return (result.rowCount ?? 0) > 0 ? { ok: true } : NOT_OWNER;
  }
}

/** The factory CYCLIUM_WORK_CLAIMS loads: creates the table once, then hands out the adapter. */
export default async function createWorkClaims(deps: WorkClaimsFactoryDeps): Promise<WorkClaims> {
  await deps.db.query(EXAMPLE_CLAIMS_TABLE_SQL);
  return new ExampleTableWorkClaims(deps.db);
}
