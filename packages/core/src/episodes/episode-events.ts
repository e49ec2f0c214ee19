import { z } from "zod";
import type { Bus } from "../bus/types";
import type { Queryable } from "../db/index";
import type { Episode } from "./episode-row";
import type { Logger } from "../telemetry/index";

/**
 * Bus topics published when an episode reaches a final status. The workflow engine advances on
 * them; recovery's reconcile re-publishes them for steps whose event was missed.
 */
export const EPISODE_EVENT_TOPICS = {
  completed: "episode.completed",
  failed: "episode.failed",
  cancelled: "episode.cancelled",
} as const;

export const EPISODE_COMPLETED_TOPIC = EPISODE_EVENT_TOPICS.completed;
export const EPISODE_FAILED_TOPIC = EPISODE_EVENT_TOPICS.failed;
export const EPISODE_CANCELLED_TOPIC = EPISODE_EVENT_TOPICS.cancelled;

export const TERMINAL_EPISODE_STATUSES = ["completed", "failed", "cancelled"] as const;
export type TerminalEpisodeStatus = (typeof TERMINAL_EPISODE_STATUSES)[number];

/** The topic an episode that ended with `status` is announced on (as the runner does). */
export function topicForEpisodeStatus(status: TerminalEpisodeStatus): string {
  return EPISODE_EVENT_TOPICS[status];
}

/**
 * The payload of `episode.completed` / `episode.failed` / `episode.cancelled`, one schema for
 * the publisher (episodeEvent below) and the receivers (the workflow engine). No `result`: it
 * can be large and the bus is for signalling, so a subscriber that needs it loads the episode.
 * Parsed loosely, because an engine of an older release must not drop a newer runner's events
 * over a field it does not know, and replays from reconciliation or recovery carry the same
 * fields.
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

const MAX_EVENT_MESSAGE = 1_000;

export function episodeEvent(episode: Episode & { status: TerminalEpisodeStatus }): TEpisodeEvent {
  return {
    episodeId: episode.id,
    actorId: episode.actorId,
    expectationId: episode.expectationId,
    status: episode.status,
    errorClass: episode.errorClass,
    errorMessage: episode.errorMessage?.slice(0, MAX_EVENT_MESSAGE) ?? null,
    workflowInstanceId: episode.workflowInstanceId,
    workflowStep: episode.workflowStep,
    sourceEnv: episode.sourceEnv,
  };
}

/**
 * Publishes the final-status event; a bus failure is logged, never thrown at the runner. With
 * `tx` (an operator command's transaction) the event is delivered when that transaction commits.
 */
export async function publishEpisodeEvent(
  bus: Pick<Bus, "publish"> | undefined,
  episode: Episode,
  logger: Logger,
  tx?: Queryable,
): Promise<void> {
  if (bus === undefined) return;
  const status = episode.status;
  if (status !== "completed" && status !== "failed" && status !== "cancelled") return;
  try {
    await bus.publish(
      topicForEpisodeStatus(status),
      episodeEvent({ ...episode, status }),
      tx === undefined ? undefined : { tx },
    );
  } catch (err) {
    logger.warn({ err, episode_id: episode.id }, "could not publish the episode's final event");
  }
}
