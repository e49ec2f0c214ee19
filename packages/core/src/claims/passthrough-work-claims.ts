import type {
  AcquireClaimResult,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimResult,
  WorkClaims,
} from "./work-claims";

const ACQUIRED: AcquireClaimResult = Object.freeze({
  ok: true,
  attempt: 1,
  stolen: false,
  fence: null,
});
const OK: RenewClaimResult & ReleaseClaimResult = Object.freeze({ ok: true });

/**
 * `CYCLIUM_WORK_CLAIMS=none`: every gate says yes and touches nothing (no table, no telemetry),
 * so a single-node setup pays nothing for claims. `fence` is null, so fenced writes go through.
 */
export class PassthroughWorkClaims implements WorkClaims {
  readonly kind = "passthrough";

  acquire(): Promise<AcquireClaimResult> {
    return Promise.resolve(ACQUIRED);
  }

  renew(): Promise<RenewClaimResult> {
    return Promise.resolve(OK);
  }

  complete(): Promise<ReleaseClaimResult> {
    return Promise.resolve(OK);
  }

  fail(): Promise<ReleaseClaimResult> {
    return Promise.resolve(OK);
  }

  reclaimExpired(): Promise<ReclaimExpiredResult> {
    return Promise.resolve({ expiredKeys: [] });
  }
}
