// Public face of the execution runtime: the per-node ActorHost (queues, concurrency, fire), the
// local runner and its step loop, and the episode events they publish.
export { ActorHost } from "./actor-host";
export { limitedRequestsOf } from "./limited-requests";
export type {
  ActorHostOptions,
  EnqueueOptions,
  EnqueueResult,
  QueueResult,
} from "./actor-host-options";
export {
  DEFAULT_LOCAL_QUEUE_LIMIT,
  DEFAULT_QUEUE_RECONCILE_MS,
  type QueueOptions,
} from "./queue-backlog";
export type { QueuedEpisodeResult } from "./actor-queue";
export {
  FIRE_TRIGGER_TYPES,
  MAX_FIRE_DELAY_MS,
  ZFireRequest,
  fireDedupeKey,
  parseFireRequest,
  type FireResult,
  type TFireRequest,
  type TParsedFireRequest,
} from "./fire-request";
export {
  LocalRunner,
  type EpisodeRunResult,
  type LocalRunnerOptions,
  type RunEpisodeOptions,
} from "./local-runner";
export { runStepLoop, type RunStepLoopOptions, type StepLoopOutcome } from "./run-step-loop";
export { exhaustedBudget, remainingWallMs, type BudgetUsage } from "./budget-check";
export { checkStepResult, type CheckedStepResult } from "./step-result";
export { describeThrown, RUNTIME_ERROR_CLASSES } from "./error-classes";
export {
  EPISODE_EVENT_TOPICS,
  ZEpisodeEvent,
  episodeEvent,
  publishEpisodeEvent,
  type TEpisodeEvent,
} from "../episodes/episode-events";
export {
  checkpointVersionOf,
  deleteCheckpoints,
  listCheckpoints,
  loadNewestCheckpoint,
  resolveResume,
  saveCheckpoint,
  ZListCheckpointsInput,
  type Checkpoint,
  type ResumePoint,
  type TListCheckpointsInput,
} from "./checkpoints/index";
// The runtime cancels (a workflow abort) with the episodes concept's command, as operators do.
export { cancelEpisode, type CancelEpisodeOptions } from "../episodes/commands/index";
