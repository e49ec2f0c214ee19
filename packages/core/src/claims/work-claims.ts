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
      /** Present the fence on journal writes; null when claims are off (nothing to fence on). */
      fence: ClaimFence | null;
    }
  | { ok: false; error: "busy" };

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

export interface CompleteClaimOptions {
  dedupeKey: string;
  owner: string;
  attempt?: number;
}

export interface FailClaimOptions extends CompleteClaimOptions {
  errorDetail: string;
}

export type ReleaseClaimResult = { ok: true } | { ok: false; error: "not_owner" };

export interface ReclaimExpiredOptions {
  /** At most this many rows per call, so one sweep cannot lock a large part of the table. */
  limit: number;
}

export interface ReclaimExpiredResult {
  expiredKeys: string[];
}

export type WorkClaimsKind = "postgres" | "passthrough" | "memory";

/**
 * Lease-based exclusive ownership of a piece of work (SPEC section 4). `tx` runs the statement
 * on the caller's transaction instead of the implementation's pool.
 */
export interface WorkClaims {
  readonly kind: WorkClaimsKind;
  acquire(options: AcquireClaimOptions, tx?: Queryable): Promise<AcquireClaimResult>;
  renew(options: RenewClaimOptions, tx?: Queryable): Promise<RenewClaimResult>;
  complete(options: CompleteClaimOptions, tx?: Queryable): Promise<ReleaseClaimResult>;
  fail(options: FailClaimOptions, tx?: Queryable): Promise<ReleaseClaimResult>;
  reclaimExpired(options: ReclaimExpiredOptions, tx?: Queryable): Promise<ReclaimExpiredResult>;
}
