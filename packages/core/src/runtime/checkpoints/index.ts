// Checkpoints (SPEC 12): saved fenced by strategies through ctx.checkpoint, resumed from by a
// restarted episode, deleted when the episode completes, listed for the console.
export type { Checkpoint } from "./checkpoint-row";
export { saveCheckpoint, type SaveCheckpointOptions } from "./save-checkpoint";
export {
  deleteCheckpoints,
  listCheckpoints,
  loadNewestCheckpoint,
  ZListCheckpointsInput,
  type TListCheckpointsInput,
} from "./list-checkpoints";
export {
  checkpointVersionOf,
  resolveResume,
  type ResolveResumeOptions,
  type ResumePoint,
} from "./resolve-resume";
