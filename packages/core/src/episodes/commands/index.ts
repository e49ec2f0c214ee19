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
  BULK_BATCH_SIZE,
  BULK_ELIGIBLE_STATUSES,
  previewBulkEpisodeCommand,
  runBulkEpisodeCommand,
  type BulkEpisodeCommand,
  type BulkEpisodeCommandKind,
  type BulkEpisodeCommandOutcome,
  type RunBulkEpisodeCommandOptions,
} from "./bulk-episode-command";
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
export {
  retryEpisode,
  retryEpisodes,
  type RetryEpisodeOptions,
  type RetryEpisodesOptions,
} from "./retry-episodes";
