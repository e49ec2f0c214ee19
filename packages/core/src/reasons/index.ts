// Why a pending episode or request waits (SPEC sections 6 and 16): the explanation the console's
// pages, `client.waitReason(id)` and REST give, judged as a full node's poller decides.
export {
  effectiveActorMode,
  EXPECTED_PICKUP_MS,
  explainPendingRequest,
  PENDING_REASONS,
  type NodeModes,
  type OverrideRow,
  type PendingReason,
  type PendingReasonCode,
} from "./explain-pending-request";
export {
  EPISODE_WAIT_REASONS,
  explainPendingEpisode,
  type EpisodeWaitCode,
  type EpisodeWaitReason,
  type PendingEpisodeFacts,
  type WaitActor,
  type WaitCluster,
} from "./explain-pending-episode";
export {
  explainPendingEpisodes,
  type ExplainPendingEpisodesOptions,
} from "./explain-pending-episodes";
