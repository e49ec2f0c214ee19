// Failures you can investigate (issue 14): each attempt's error (cyclium_episode_attempts, written
// by the runner's end and recovery), and retry with an edited input checked against the
// expectation's schema.
export {
  ATTEMPT_OUTCOMES,
  EPISODE_ATTEMPT_COLUMNS,
  toEpisodeAttempt,
  type AttemptOutcome,
  type EpisodeAttempt,
  type EpisodeAttemptRow,
} from "./episode-attempt";
export { listEpisodeAttempts } from "./list-episode-attempts";
export {
  retryEpisodeWithInput,
  type RetryEpisodeWithInputOptions,
  type RetryEpisodeWithInputResult,
} from "./retry-episode-with-input";
