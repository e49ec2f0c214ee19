import { z } from "zod";
import { EPISODE_EVENT_TOPICS } from "../episodes/episode-events";

/** Bus topics the runner announces an episode's end on (SPEC section 2, "Workflow"). */
export const EPISODE_COMPLETED_TOPIC = EPISODE_EVENT_TOPICS.completed;
export const EPISODE_FAILED_TOPIC = EPISODE_EVENT_TOPICS.failed;
export const EPISODE_CANCELLED_TOPIC = EPISODE_EVENT_TOPICS.cancelled;

export const TERMINAL_EPISODE_STATUSES = ["completed", "failed", "cancelled"] as const;
export type TerminalEpisodeStatus = (typeof TERMINAL_EPISODE_STATUSES)[number];

/**
 * The payload of `episode.completed` / `episode.failed` as the workflow engine reads it: the
 * runner's event (runtime/episode-events.ts), parsed loosely, because an engine of an older
 * release must not drop a newer runner's events over a field it does not know, and replays from
 * reconciliation or recovery carry the same fields.
 */
export const ZEpisodeEvent = z
  .object({
    episodeId: z.string().min(1),
    actorId: z.string().min(1),
    expectationId: z.string().min(1),
    workflowInstanceId: z.string().nullish(),
    workflowStep: z.string().nullish(),
    status: z.enum(TERMINAL_EPISODE_STATUSES),
    result: z.unknown().optional(),
    errorClass: z.string().nullish(),
    errorMessage: z.string().nullish(),
    sourceEnv: z.string().nullish(),
  })
  .loose();
export type TEpisodeEvent = z.infer<typeof ZEpisodeEvent>;

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
