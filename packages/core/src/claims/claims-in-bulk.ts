import type { Queryable } from "../db/index";
import { validateClaimInput, validateDistinctKeys } from "./validate-claim-input";
import type {
  AcquireClaimResult,
  AcquireManyClaimsOptions,
  FailManyClaimsOptions,
  ReleaseClaimResult,
  WorkClaims,
} from "./work-claims";

/**
 * `claims.acquireMany` when the adapter has it, else `acquire` once per key in input order (what
 * `acquireMany` must be equivalent to). One result per key, in input order.
 */
export async function acquireClaimsInBulk(
  claims: WorkClaims,
  options: AcquireManyClaimsOptions,
  tx?: Queryable,
): Promise<AcquireClaimResult[]> {
  if (options.dedupeKeys.length === 0) return [];
  if (claims.acquireMany) return claims.acquireMany(options, tx);
  const { owner, leaseSeconds } = options;
  // All checked before the first acquire, as a native batch does: bad input changes nothing.
  for (const dedupeKey of options.dedupeKeys)
    validateClaimInput({ dedupeKey, owner, leaseSeconds });
  validateDistinctKeys(options.dedupeKeys);
  const results: AcquireClaimResult[] = [];
  for (const dedupeKey of options.dedupeKeys) {
    results.push(
      await claims.acquire(
        { dedupeKey, owner: options.owner, leaseSeconds: options.leaseSeconds },
        tx,
      ),
    );
  }
  return results;
}

/** `claims.failMany` when the adapter has it, else `fail` once per claim in input order. */
export async function failClaimsInBulk(
  claims: WorkClaims,
  options: FailManyClaimsOptions,
  tx?: Queryable,
): Promise<ReleaseClaimResult[]> {
  if (options.claims.length === 0) return [];
  if (claims.failMany) return claims.failMany(options, tx);
  for (const { dedupeKey } of options.claims)
    validateClaimInput({ dedupeKey, owner: options.owner });
  validateDistinctKeys(options.claims.map((claim) => claim.dedupeKey));
  const results: ReleaseClaimResult[] = [];
  for (const claim of options.claims) {
    results.push(await claims.fail({ ...claim, owner: options.owner }, tx));
  }
  return results;
}
