// The console's read model of trigger requests: the keyset list with open counts (why a pending
// request waits is in reasons/).
export {
  listTriggerRequests,
  type TriggerRequestFilters,
  type TriggerRequestItem,
} from "./list-trigger-requests";
