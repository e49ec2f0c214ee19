import { EPISODE_EVENT_TOPICS, type TerminalEpisodeStatus } from "../episodes/episode-events";

/** Bus topics the runner announces an episode's end on (SPEC section 2, "Workflow"). */
export const EPISODE_COMPLETED_TOPIC = EPISODE_EVENT_TOPICS.completed;
export const EPISODE_FAILED_TOPIC = EPISODE_EVENT_TOPICS.failed;
export const EPISODE_CANCELLED_TOPIC = EPISODE_EVENT_TOPICS.cancelled;

// One schema for the event, declared with its publisher in the episodes concept.
export {
  TERMINAL_EPISODE_STATUSES,
  ZEpisodeEvent,
  type TEpisodeEvent,
  type TerminalEpisodeStatus,
} from "../episodes/episode-events";

/** The topic an episode that ended with `status` is announced on (as the runner does). */
export function topicForEpisodeStatus(status: TerminalEpisodeStatus): string {
  switch (status) {
    case "completed":
      return EPISODE_COMPLETED_TOPIC;
    case "failed":
      return EPISODE_FAILED_TOPIC;
    case "cancelled":
      return EPISODE_CANCELLED_TOPIC;
  }
}
