import type { ClaimedWork } from "../claims/index";
import type { Connectable } from "../db/index";
import type { Episode } from "../episodes/index";
import type { Logger } from "../telemetry/index";
import { parkEpisode } from "../waits/index";
import type { EpisodeRunResult } from "./episode-run-result";
import type { StepLoopOutcome } from "./run-step-loop";
import { journalAttempt } from "./write-episode-end";
import { retryTransient, type WriteRetryOptions } from "./write-retry";

export interface WriteEpisodeParkInput {
  episode: Episode;
  /** The strategy's checkpointVersion, written with the wait's checkpoint. */
  schemaVersion: number;
  outcome: Extract<StepLoopOutcome, { kind: "waiting" }>;
  claimed: ClaimedWork;
  triggerRequestId: string | undefined;
  db: Connectable;
  nodeIdentity: string;
  logger: Logger;
  retry: WriteRetryOptions;
}

/**
 * A step returned a wait (SPEC section 17): the episode is parked `waiting` (parkEpisode) with
 * its state as the checkpoint of the wait's step, its claim and lease released; its slot frees
 * when this run settles. A resend after a commit whose reply was lost finds the claim released
 * (`fenced`): the episode is left to that first commit, and nothing is written twice.
 */
export async function writeEpisodePark(input: WriteEpisodeParkInput): Promise<EpisodeRunResult> {
  const { episode, outcome, claimed, logger } = input;
  // A renew landing after the park would find the claim released and report it lost.
  await claimed.stopHeartbeat();
  const parked = await retryTransient(
    () =>
      parkEpisode(
        {
          episodeId: episode.id,
          fence: claimed.fence,
          node: input.nodeIdentity,
          step: { ...outcome.finalStep, attempt: journalAttempt(episode, claimed) },
          checkpoint: {
            phase: outcome.wait.kind === "sleep" ? "wait" : `wait:${outcome.wait.signal}`,
            schemaVersion: input.schemaVersion,
            state: outcome.state,
          },
          wait: outcome.wait,
          wallUsedMs: outcome.wallUsedMs,
          triggerRequestId: input.triggerRequestId,
        },
        input.db,
      ),
    input.retry,
  );
  const meta = { episode_id: episode.id, actor_id: episode.actorId, wait: outcome.wait.kind };
  switch (parked.kind) {
    case "fenced":
      return { kind: "left_running", reason: "fenced" };
    case "not_running":
      if (claimed.fence !== null) claimed.markReleased();
      return { kind: "not_pending" };
    case "waiting":
      if (claimed.fence !== null) claimed.markReleased();
      logger.debug({ ...meta, wake_at: parked.wakeAt }, "episode waiting");
      return { kind: "waiting", episode: { ...episode, status: "waiting" } };
  }
}
