import type {
  AcquireClaimResult,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimResult,
  WorkClaims,
} from "./work-claims";

const ACQUIRED: AcquireClaimResult = Object.freeze({ ok: true, attempt: 1, stolen: false });
const OK: RenewClaimResult & ReleaseClaimResult = Object.freeze({ ok: true });

/**
 * `CYCLIUM_WORK_CLAIMS=off` (or `none`): every gate says yes and touches nothing (no table, no
 * telemetry), so a single-node setup pays nothing for claims. It declares `off`, so the runtime
 * runs no heartbeat and its writes carry no fence. It does not pass the conformance suite, by
 * design: two acquirers both win.
 */
export class PassthroughWorkClaims implements WorkClaims {
  readonly off = true;

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

  holds(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
