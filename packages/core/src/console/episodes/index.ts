// The console's read models of episodes: the keyset list with its filters, the count of a
// filter (exact up to a bound, estimated past it), the values for the filter dropdowns, one
// episode with its journal, claim, findings and requests, and the capped counts per status the
// Overview polls, and why pending episodes wait (a page of them at once).
export {
  COUNT_CAP,
  countEpisodesByStatus,
  type EpisodeStatusCounts,
} from "./count-episodes-by-status";
export { countEpisodes, EXACT_COUNT_UP_TO, type EpisodeCount } from "./count-episodes";
export {
  episodeFilterSql,
  inputContainments,
  type EpisodeInputMatch,
  type EpisodeListFilters,
} from "./episode-filter";
export {
  getEpisodeDetail,
  MAX_STEPS_SHOWN,
  type EpisodeClaim,
  type EpisodeDetail,
  type EpisodeStep,
  type EpisodeTriggerRequestRef,
  type GetEpisodeDetailOptions,
} from "./get-episode-detail";
export { listEpisodeFacets, type EpisodeFacets } from "./list-episode-facets";
export { listEpisodes, type ListEpisodesOptions } from "./list-episodes";
// The console's bulk action over a filtered list (a read model and the operator commands).
export {
  BULK_BATCH_SIZE,
  BULK_ELIGIBLE_STATUSES,
  previewBulkEpisodeCommand,
  runBulkEpisodeCommand,
  type BulkEpisodeCommand,
  type BulkEpisodeCommandKind,
  type BulkEpisodeCommandOutcome,
  type RunBulkEpisodeCommandOptions,
} from "./bulk-episode-command";
