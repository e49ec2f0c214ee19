import type { Queryable } from "../db/index";

/** States of `cyclium_work_claims.state`. */
export const CLAIM_STATES = ["claimed", "done", "failed", "expired"] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

/** `cyclium_work_claims.dedupe_key` is VARCHAR(512). */
export const MAX_DEDUPE_KEY_LENGTH = 512;

/** Default lease (SPEC section 4, `CYCLIUM_WORK_CLAIMS_LEASE_SECONDS`). */
export const DEFAULT_LEASE_SECONDS = 120;

/**
 * What a writer presents to prove it still holds the claim: writes are applied only while the
 * claim row for `dedupeKey` is `claimed` by `owner` at exactly `attempt`.
 */
export interface ClaimFence {
  dedupeKey: string;
  owner: string;
  attempt: number;
  /**
   * Set when the lease is the episode's own (SPEC section 4, episodes/lease/): the fence then holds
   * while this episode row is executed by `owner` at `attempt` with a lease (`lease_until` not
   * NULL), and the claim row of `dedupeKey` is not read.
   */
  episodeId?: string;
}

export interface AcquireClaimOptions {
  dedupeKey: string;
  owner: string;
  leaseSeconds: number;
}

export type AcquireClaimResult =
  | {
      ok: true;
      /** 1 on first acquire, +1 on every take-over: the fencing token. */
      attempt: number;
      /** True when a still-`claimed` row whose lease ran out was taken over. */
      stolen: boolean;
    }
  | { ok: false; error: "busy" };

/** `acquireMany`: the same acquire for every key of a batch (distinct keys), one owner and lease. */
export interface AcquireManyClaimsOptions {
  dedupeKeys: readonly string[];
  owner: string;
  leaseSeconds: number;
}

export interface RenewClaimOptions {
  dedupeKey: string;
  owner: string;
  leaseSeconds: number;
  /**
   * The attempt the renewer acquired. Give it: the owner alone cannot tell an old task of this
   * node from a newer one that re-acquired the same key on the same node.
   */
  attempt?: number;
}

export type RenewClaimResult = { ok: true } | { ok: false; error: "not_owner" };

/** Many claims of one owner renewed at once (`renewMany`), each fenced like `renew`. */
export interface RenewManyClaimsOptions {
  owner: string;
  leaseSeconds: number;
  claims: readonly { dedupeKey: string; attempt?: number | undefined }[];
}

/** A claim `renewMany` extended, at the attempt the owner holds. */
export interface RenewedClaim {
  dedupeKey: string;
  attempt: number;
}

/** Every given claim not in `renewed` is no longer the owner's (not_owner, never an exception). */
export interface RenewManyClaimsResult {
  renewed: RenewedClaim[];
}

export interface CompleteClaimOptions {
  dedupeKey: string;
  owner: string;
  attempt?: number;
}

export interface FailClaimOptions extends CompleteClaimOptions {
  errorDetail: string;
}

export type ReleaseClaimResult = { ok: true } | { ok: false; error: "not_owner" };

/** `failMany`: `fail` for each claim of a batch (distinct keys), all held by one owner. */
export interface FailManyClaimsOptions {
  owner: string;
  claims: readonly { dedupeKey: string; attempt?: number | undefined; errorDetail: string }[];
}

export interface ReclaimExpiredOptions {
  /** At most this many rows per call, so one sweep cannot lock a large part of the table. */
  limit: number;
}

export interface ReclaimExpiredResult {
  expiredKeys: string[];
}

/**
 * Lease-based exclusive ownership of a piece of work (SPEC section 4): the contract every claim
 * adapter implements, checked by `describeWorkClaimsConformance` (`@cyclium/core/testing`)
 * and described for adapter authors in docs/work-claims.md.
 *
 * - `acquire` is atomic: of concurrent acquirers of one key exactly one gets `ok`. It takes over a
 *   `done`/`failed`/`expired` claim (a fresh acquire) or a `claimed` one whose lease ran out (a
 *   steal, `stolen: true`); `attempt` grows by one on every take-over and is the fencing token.
 * - `renew`, `complete` and `fail` act only while the caller is the owner (at `attempt` when
 *   given); otherwise `not_owner`, never an exception.
 * - `holds(fence)` is true only while the claim is `claimed` by `fence.owner` at `fence.attempt`:
 *   the check the runtime makes before a side effect (SPEC 12, "fence before side effects").
 * - `reclaimExpired` marks at most `limit` lapsed `claimed` claims `expired`.
 * - Bad input (an empty or over-long key or owner, a non-positive lease) throws a
 *   `CycliumError` with code `invalid_input` (see `validateClaimInput`).
 *
 * - `acquireMany` and `failMany` (optional) answer, key by key and in input order, exactly what
 *   `acquire` / `fail` called once per key in that order would have answered, in fewer round
 *   trips; a key repeated in one batch rejects with `invalid_input`. An adapter without them is
 *   called once per key (`acquireClaimsInBulk`, `failClaimsInBulk`).
 *
 * `tx` runs the statement on the caller's transaction. Only adapters whose claims live in this
 * database can honour it; every other adapter ignores it.
 */
export interface WorkClaims {
  /**
   * Capability: claims are rows of `cyclium_work_claims` in the database the runtime writes
   * episodes to. The runtime then fences its own writes inside the same SQL statements (one
   * `FOR SHARE` probe of the claim row per write, so a zombie's write cannot land after a
   * take-over) and starts and ends many episodes with one shared statement each. Without it,
   * the runtime goes through the callbacks only and checks `holds` before side effects.
   * Declare it only when it is true: the runtime then bypasses `acquire` for episode starts.
   */
  readonly usesSqlFence?: boolean;
  /**
   * Capability: claims are switched off (`CYCLIUM_WORK_CLAIMS=off`). Every gate says yes, so the
   * runtime skips heartbeats and recovery takes no claim before an orphan.
   */
  readonly off?: boolean;
  /**
   * Capability of the built-in PostgreSQL claims only (SPEC section 4): an episode's run holds its
   * lease in its own row (episodes/lease/) instead of a claim row, and a trigger request goes from
   * `pending` to `completed` in the statement that starts its episode. Every other claim still
   * lives in `cyclium_work_claims`. False with `CYCLIUM_WORK_CLAIMS=postgres-claim-rows`, which
   * runs every episode under a claim row as the releases before it did (docs/work-claims.md).
   */
  readonly episodeLeasesInRow?: boolean;
  acquire(options: AcquireClaimOptions, tx?: Queryable): Promise<AcquireClaimResult>;
  renew(options: RenewClaimOptions, tx?: Queryable): Promise<RenewClaimResult>;
  /**
   * Optional: `renew` for many claims of one owner in one round trip (the lease keeper sends it
   * once per tick for all of a node's claims). Without it the keeper calls `renew` per claim.
   */
  renewMany?(options: RenewManyClaimsOptions, tx?: Queryable): Promise<RenewManyClaimsResult>;
  complete(options: CompleteClaimOptions, tx?: Queryable): Promise<ReleaseClaimResult>;
  fail(options: FailClaimOptions, tx?: Queryable): Promise<ReleaseClaimResult>;
  reclaimExpired(options: ReclaimExpiredOptions, tx?: Queryable): Promise<ReclaimExpiredResult>;
  holds(fence: ClaimFence, tx?: Queryable): Promise<boolean>;
  /** Optional batch form of `acquire`: one result per key, in input order. */
  acquireMany?(options: AcquireManyClaimsOptions, tx?: Queryable): Promise<AcquireClaimResult[]>;
  /** Optional batch form of `fail`: one result per claim, in input order. */
  failMany?(options: FailManyClaimsOptions, tx?: Queryable): Promise<ReleaseClaimResult[]>;
}

/** The optional batch callbacks; when present they must be functions. */
export const WORK_CLAIMS_BATCH_METHODS = ["acquireMany", "renewMany", "failMany"] as const;

/** The callbacks of the contract, in the order the start-up check reports missing ones. */
export const WORK_CLAIMS_METHODS = [
  "acquire",
  "renew",
  "complete",
  "fail",
  "reclaimExpired",
  "holds",
] as const;
