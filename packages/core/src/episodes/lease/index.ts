// The episode's own lease (SPEC section 4): with the built-in PostgreSQL claims, an episode's
// execution lease lives in its row (owner `executed_by`, `lease_until`, fencing token `attempt`)
// instead of a cyclium_work_claims row. The start that takes it is
// trigger-requests/start-requested-episodes.ts; fenced writes test it through fenceCte.
export {
  renewEpisodeLeases,
  type RenewEpisodeLeaseOutcome,
  type RenewEpisodeLeasesOptions,
} from "./renew-episode-leases";
export {
  stealEpisodeLeases,
  type StealEpisodeLeaseOutcome,
  type StealEpisodeLeasesOptions,
} from "./steal-episode-leases";
export { startLeasedEpisodes, type StartLeasedEpisodesOutcome } from "./start-leased-episodes";
export { releaseEpisodeLease } from "./release-episode-lease";
export { recordRunTraceparent } from "./record-run-traceparent";
export { EpisodeLeaseClaims } from "./episode-lease-claims";
