// @cyclium/core/console/browser: what the console's browser bundle may import, the status and
// trigger-type unions without the statements (and so without pg) the `/console` face brings.
export {
  EPISODE_STATUSES,
  TRIGGER_TYPES,
  type EpisodeStatus,
  type TriggerType,
} from "../episodes/statuses/index";
