// The console's read models of work claims: the keyset list (with the episode each key names)
// and the counts of held claims; the episodes holding their own lease (SPEC section 4) beside them.
export {
  envOfDedupeKey,
  listWorkClaims,
  summariseWorkClaims,
  type WorkClaimFilters,
  type WorkClaimItem,
  type WorkClaimSummary,
} from "./list-work-claims";
export {
  listEpisodeLeases,
  summariseEpisodeLeases,
  type EpisodeLeaseItem,
  type EpisodeLeaseSummary,
} from "./list-episode-leases";
