// Operator commands on episodes (cancel, retry, archive), each for one id or many in one
// statement, returning a `kind` per id, and each over every episode a filter matches (batched). The runtime's cancel (a workflow abort) is the same
// function, so both publish the same `episode.cancelled`.
export {
  archiveEpisode,
  archiveEpisodes,
  type ArchiveEpisodeOptions,
  type ArchiveEpisodesOptions,
} from "./archive-episodes";
export {
  cancelEpisode,
  cancelEpisodes,
  type CancelEpisodeOptions,
  type CancelEpisodesOptions,
} from "./cancel-episodes";
export type {
  ArchiveEpisodeResult,
  CancelEpisodeResult,
  EpisodeCommandResult,
  RetryEpisodeResult,
} from "./episode-command-result";
