// The console's read models of episodes: the keyset list with its filters, the values for the
// filter dropdowns, one episode with its journal, claim, findings and requests, and the capped
// counts per status the Overview polls.
export {
  COUNT_CAP,
  countEpisodesByStatus,
  type EpisodeStatusCounts,
} from "./count-episodes-by-status";
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
export {
  episodeFilterSql,
  listEpisodes,
  type EpisodeListFilters,
  type ListEpisodesOptions,
} from "./list-episodes";
