// The console's read models of work claims: the keyset list (with the episode each key names)
// and the counts of held claims.
export {
  envOfDedupeKey,
  listWorkClaims,
  summariseWorkClaims,
  type WorkClaimFilters,
  type WorkClaimItem,
  type WorkClaimSummary,
} from "./list-work-claims";
