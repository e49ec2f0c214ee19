// What a browser bundle may import from the episodes concept (`@cyclium/core/console/browser`):
// the status and trigger-type unions, declared once in episode-row.ts, without the statements
// (and so without pg) that the episodes face brings along.
export {
  EPISODE_STATUSES,
  TRIGGER_TYPES,
  type EpisodeStatus,
  type TriggerType,
} from "../episode-row";
