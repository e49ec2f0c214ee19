export {
  appendStep,
  reportFenced,
  type AppendStepOptions,
  type AppendStepResult,
} from "./append-step";
export { canonicalHash, canonicalJson } from "./canonical-json";
export {
  createEpisode,
  DEFAULT_CREATE_JITTER_MS,
  type CreateEpisodeOptions,
  type CreateEpisodeResult,
} from "./create-episode";
export { dedupeKey, scheduleWindow, type DedupeKeyInput } from "./dedupe-key";
export {
  EPISODE_STATUSES,
  episodeColumns,
  episodeSummaryColumns,
  toEpisode,
  toEpisodeSummary,
  TRIGGER_TYPES,
  type Episode,
  type EpisodeRow,
  type EpisodeStatus,
  type EpisodeSummary,
  type EpisodeSummaryRow,
  type TriggerType,
} from "./episode-row";
export type { JournalStep } from "./journal-step";
export { findLiveEpisodeId, loadEpisode } from "./load-episode";
export {
  finishEpisode,
  type FinishEpisodeOptions,
  type FinishEpisodeResult,
} from "./finish-episode";
export {
  startEpisodes,
  type StartEpisodesOptions,
  type StartEpisodesOutcome,
} from "./start-episodes";
export {
  handBackEpisodes,
  type EpisodeHandBack,
  type HandBackEpisodesOutcome,
} from "./hand-back-episodes";
export {
  unstartEpisodes,
  type EpisodeUnstart,
  type UnstartEpisodesOutcome,
} from "./unstart-episodes";
export {
  archiveEpisode,
  archiveEpisodes,
  cancelEpisode,
  cancelEpisodes,
  type ArchiveEpisodeOptions,
  type ArchiveEpisodeResult,
  type ArchiveEpisodesOptions,
  type CancelEpisodeOptions,
  type CancelEpisodeResult,
  type CancelEpisodesOptions,
  type EpisodeCommandResult,
  type RetryEpisodeResult,
} from "./commands/index";
export {
  EPISODE_CANCELLED_TOPIC,
  EPISODE_COMPLETED_TOPIC,
  EPISODE_EVENT_TOPICS,
  EPISODE_FAILED_TOPIC,
  TERMINAL_EPISODE_STATUSES,
  ZEpisodeEvent,
  episodeEvent,
  publishEpisodeEvent,
  topicForEpisodeStatus,
  type TEpisodeEvent,
  type TerminalEpisodeStatus,
} from "./episode-events";
export { endEpisodes, type EndEpisodesOutcome, type EpisodeEnd } from "./end-episodes";
export {
  renewEpisodeLeases,
  startLeasedEpisodes,
  stealEpisodeLeases,
  type RenewEpisodeLeaseOutcome,
  type RenewEpisodeLeasesOptions,
  type StartLeasedEpisodesOutcome,
  type StealEpisodeLeaseOutcome,
  type StealEpisodeLeasesOptions,
} from "./lease/index";
