// Failures you can investigate (issue 14): each attempt's error (cyclium_episode_attempts, written
// by the runner's end and recovery). Retrying with an edited input is in retries/.
export {
  ATTEMPT_OUTCOMES,
  EPISODE_ATTEMPT_COLUMNS,
  toEpisodeAttempt,
  type AttemptOutcome,
  type EpisodeAttempt,
  type EpisodeAttemptRow,
} from "./episode-attempt";
export { listEpisodeAttempts } from "./list-episode-attempts";
