// Public face of deferred execution (SPEC section 6): the deferred runner trigger_only nodes
// write requests with, the poller full nodes dispatch them with, and the statements of both.
export {
  DeferredRunner,
  type DeferEpisodeInput,
  type DeferredRunnerOptions,
  type DeferResult,
  type RequestTiming,
} from "./deferred-runner";
export {
  DEFAULT_TRIGGER_POLL_INTERVAL_MS,
  TriggerRequestPoller,
  type DispatchResult,
  type DispatchSettled,
  type PollerHost,
  type PollerModes,
  type TriggerRequestPollerOptions,
} from "./trigger-request-poller";
export { dispatchStartedEpisodes, type StartedEpisodeLease } from "./dispatch-started-episodes";
export { NotifyCoalescer, type NotifyCoalescerOptions } from "./notify-coalescer";
export {
  claimTriggerRequests,
  type ClaimedTriggerRequest,
  type ClaimTriggerRequestsOptions,
} from "./claim-trigger-requests";
export {
  ageTriggerRequests,
  DEFAULT_PRIORITY_AGEING_MS,
  type AgeTriggerRequestsOptions,
} from "./age-trigger-requests";
export { nextDueTriggerRequest } from "./next-due-trigger-request";
export { completeTriggerRequests } from "./complete-trigger-requests";
export {
  startRequestedEpisodes,
  type StartedRequestedEpisode,
  type StartRequestedEpisodesOptions,
} from "./start-requested-episodes";
export type { LimitedRequests } from "./start-limited-requests";
export { completeSettledTriggerRequests } from "./complete-settled-trigger-requests";
export {
  expireTriggerRequests,
  type ExpireTriggerRequestsOptions,
  type ExpireTriggerRequestsResult,
} from "./expire-trigger-requests";
export {
  insertTriggerRequests,
  type InsertTriggerRequestsOptions,
  type NewTriggerRequest,
} from "./insert-trigger-requests";
export {
  releaseOrphanedTriggerRequests,
  type ReleaseOrphanedTriggerRequestsOptions,
} from "./release-orphaned-trigger-requests";
export { releaseTriggerRequests } from "./release-trigger-requests";
export {
  wakeTriggerRequestPollers,
  type WakeTriggerRequestPollersOptions,
} from "./wake-trigger-request-pollers";
export {
  TRIGGER_REQUEST_STATUSES,
  TRIGGER_REQUESTS_CHANNEL,
  ZTriggerRequestOpts,
  ZTriggerRequestWakeup,
  type TriggerRequestStatus,
  type TTriggerRequestOpts,
  type TTriggerRequestWakeup,
} from "./trigger-request";
