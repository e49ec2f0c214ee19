// Durable waits (SPEC section 17): a step's `wait` / `waitFor` parks its episode `waiting`, a
// trigger request due at its wake time resumes it, signals are kept until a wait consumes them.
export {
  EPISODE_WAIT_COLUMNS,
  EPISODE_WAIT_KINDS,
  toEpisodeWait,
  type EpisodeWait,
  type EpisodeWaitKind,
  type EpisodeWaitRequest,
  type EpisodeWaitRow,
} from "./episode-wait";
export {
  isWakeResume,
  parkEpisode,
  type ParkEpisodeOptions,
  type ParkEpisodeOutcome,
} from "./park-episode";
export { loadWakeup, type LoadWakeupOptions } from "./load-wakeup";
export {
  deliverSignal,
  ZDeliverSignalInput,
  type DeliverSignalResult,
  type TDeliverSignalInput,
} from "./deliver-signal";
export { validateSignal, type ValidateSignalResult } from "./validate-signal";
export { sendSignal, type SendSignalOptions, type SendSignalResult } from "./send-signal";
export {
  describeSignals,
  loadEpisodeWait,
  type DeclaredSignal,
  type EpisodeWaitView,
} from "./load-episode-wait";
