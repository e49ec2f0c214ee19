export { acquireClaim, type AcquireClaimRow } from "./acquire-claim";
export { acquireClaims, type AcquireClaimsRow } from "./acquire-claims";
export { acquireClaimsInBulk, failClaimsInBulk } from "./claims-in-bulk";
export { checkFence } from "./check-fence";
export { claimKeyOf, claimKeySql } from "./claim-key";
export {
  DEFAULT_RECLAIM_INTERVAL_MS,
  startClaimsExpiryTimer,
  type ClaimsExpiryTimer,
  type ClaimsExpiryTimerOptions,
} from "./claims-expiry-timer";
export { completeClaim } from "./complete-claim";
export {
  createWorkClaims,
  isWorkClaimsMode,
  WORK_CLAIMS_MODES,
  type CreateWorkClaimsOptions,
  type WorkClaimsMode,
} from "./create-work-claims";
export { failClaim } from "./fail-claim";
export { failClaims } from "./fail-claims";
export {
  assertWorkClaims,
  loadWorkClaims,
  type LoadWorkClaimsOptions,
  type WorkClaimsFactory,
  type WorkClaimsFactoryDeps,
} from "./load-work-claims";
export {
  startHeartbeat,
  type Heartbeat,
  type HeartbeatEnd,
  type HeartbeatOptions,
} from "./heartbeat";
export { LeaseKeeper, type HoldClaimOptions, type LeaseKeeperOptions } from "./lease-keeper";
export { LeaseReckoning } from "./lease-reckoning";
export {
  MemoryWorkClaims,
  type MemoryClaim,
  type MemoryWorkClaimsOptions,
} from "./memory-work-claims";
export { PassthroughWorkClaims } from "./passthrough-work-claims";
export {
  PostgresWorkClaims,
  type PostgresAcquireClaimResult,
  type PostgresWorkClaimsOptions,
} from "./postgres-work-claims";
export { reclaimExpiredClaims } from "./reclaim-expired-claims";
export { renewClaim } from "./renew-claim";
export {
  CLAIMS_EXPIRY_CLAIM_KEY,
  DEFAULT_RECLAIM_BATCH_SIZE,
  DEFAULT_RECLAIM_MAX_BATCHES,
  sweepExpiredClaims,
  type SweepExpiredClaimsOptions,
  type SweepExpiredClaimsResult,
} from "./sweep-expired-claims";
export {
  runWithAcquiredClaim,
  runWithClaim,
  type AcquiredClaim,
  type ClaimedWork,
  type RunWithClaimOptions,
  type RunWithClaimResult,
} from "./run-with-claim";
export {
  CLAIM_STATES,
  DEFAULT_LEASE_SECONDS,
  MAX_DEDUPE_KEY_LENGTH,
  type AcquireClaimOptions,
  type AcquireClaimResult,
  type AcquireManyClaimsOptions,
  type ClaimFence,
  type ClaimState,
  type CompleteClaimOptions,
  type FailClaimOptions,
  type FailManyClaimsOptions,
  type ReclaimExpiredOptions,
  type ReclaimExpiredResult,
  type ReleaseClaimResult,
  type RenewClaimOptions,
  type RenewClaimResult,
  WORK_CLAIMS_BATCH_METHODS,
  WORK_CLAIMS_METHODS,
  type WorkClaims,
} from "./work-claims";
export {
  validateClaimInput,
  validateDistinctKeys,
  validateReclaimLimit,
} from "./validate-claim-input";
