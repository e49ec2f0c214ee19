// The console's read models of trigger requests: the keyset list with open counts, and why a
// pending request waits (judged with core's mode precedence, as a full node's poller decides).
export {
  effectiveActorMode,
  EXPECTED_PICKUP_MS,
  explainPendingRequest,
  PENDING_REASONS,
  type NodeModes,
  type OverrideRow,
  type PendingReason,
  type PendingReasonCode,
} from "../../reasons/index";
export {
  listTriggerRequests,
  type TriggerRequestFilters,
  type TriggerRequestItem,
} from "./list-trigger-requests";
