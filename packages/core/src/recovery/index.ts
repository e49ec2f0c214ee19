// Public face of recovery (SPEC section 5): the orphan sweep, workflow reconciliation, and the
// timer a worker runs them on.
export { createRecovery, type Recovery } from "./create-recovery";
export {
  sweepOrphanedEpisodes,
  DEFAULT_STALE_AFTER_MS,
  DEFAULT_SWEEP_LIMIT,
  ZSweepOptions,
  type RecoveryConfig,
  type SweepOptions,
  type SweepResult,
} from "./recovery-sweep";
export type { RecoveredEpisode } from "./recover-episodes";
export {
  reconcileWorkflows,
  type ReconcileWorkflowsConfig,
  type ReconcileWorkflowsOptions,
  type ReconcileWorkflowsResult,
} from "./reconcile-workflows";
export {
  RECOVERY_POLICIES,
  ZRecoveryPolicy,
  type OrphanedEpisode,
  type RecoveryPolicy,
  type RecoveryPolicySource,
  type ResolveRecoveryPolicy,
} from "../actors/recovery-policy";
export type { RecoveryTarget } from "./recovery-target";
export {
  adoptAbandonedEpisodes,
  DEFAULT_NODE_SILENCE_MS,
  type AdoptAbandonedEpisodesOptions,
} from "./adopt-abandoned-episodes";
export {
  startRecoveryTimer,
  type RecoveryTimer,
  type RecoveryTimerOptions,
} from "./recovery-timer";
export { policyFromDefinition } from "./policy-from-definition";
