import type { ClaimedWork } from "../claims/index";
import type { Bus } from "../bus/index";
import type { Episode } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type { BatchedEpisodeWrites } from "./batched-episode-writes";
import {
  EPISODE_EVENT_TOPICS,
  episodeEvent,
  publishEpisodeEvent,
} from "../episodes/episode-events";
import type { EpisodeRunResult } from "./episode-run-result";
import type { StepLoopOutcome } from "./run-step-loop";
import { retryTransient, type WriteRetryOptions } from "./write-retry";

export interface WriteEpisodeEndDeps {
  writes: BatchedEpisodeWrites;
  bus: Bus | undefined;
  telemetry: Telemetry;
  logger: Logger;
  /** When the end statement may be resent after a transient database error. */
  retry: WriteRetryOptions;
}

export interface WriteEpisodeEndInput {
  episode: Episode;
  outcome: Extract<StepLoopOutcome, { kind: "completed" | "failed" }>;
  claimed: ClaimedWork;
  triggerRequestId: string | undefined;
  /**
   * A failed attempt with attempts left under the expectation's `retry`: the episode goes back to
   * pending at attempt + 1 with a request due in this many ms, and announces no end.
   */
  retryDelayMs?: number | undefined;
}

/**
 * The episode's end in one shared, fenced statement: its last step, final status, the claim
 * `done`, its trigger request `completed` and its `episode.completed` / `episode.failed` event,
 * which PostgreSQL sends on commit (a bus that cannot send it that way publishes after).
 *
 * Resent after a transient error while `retry` allows. A resend is harmless: the journal entry
 * has a conflict target, and an end that had committed with its reply lost is recognised
 * (alreadyEnded: its claim is `done` at this attempt) and sends no second NOTIFY; a bus without
 * inline NOTIFY publishes once, here, since the first send never got that far.
 */
export async function writeEpisodeEnd(
  deps: WriteEpisodeEndDeps,
  input: WriteEpisodeEndInput,
): Promise<EpisodeRunResult> {
  const { bus, telemetry, logger } = deps;
  const { episode, outcome, claimed, triggerRequestId } = input;
  const failed = outcome.kind === "failed";
  const errorClass = failed ? outcome.errorClass : null;
  const errorMessage = failed ? outcome.message : null;
  const retryDelayMs = failed ? input.retryDelayMs : undefined;
  // A retried attempt has not ended the episode: no episode event, so workflows and waiting
  // clients go on waiting for the attempt that does.
  const notify =
    retryDelayMs === undefined
      ? bus?.inlineNotification?.(
          EPISODE_EVENT_TOPICS[outcome.kind],
          episodeEvent({ ...episode, status: outcome.kind, errorClass, errorMessage }),
        )
      : undefined;
  // Found by the fault suite: a renew landing right after this statement found the claim done
  // and reported it lost (renew_failed, lease_lost) for an episode that had just completed.
  await claimed.stopHeartbeat();
  const endWrite = {
    episodeId: episode.id,
    fence: claimed.fence,
    status: outcome.kind,
    ...(failed
      ? { errorClass, errorMessage, errorStack: outcome.stack ?? null }
      : { result: outcome.result ?? null }),
    ...(outcome.finalStep === undefined
      ? {}
      : { finalStep: { ...outcome.finalStep, attempt: journalAttempt(episode, claimed) } }),
    ...(triggerRequestId === undefined ? {} : { triggerRequestId }),
    ...(notify === undefined ? {} : { notify }),
    ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
  };
  const end = await retryTransient(() => deps.writes.end(endWrite), deps.retry);
  if (end.kind === "fenced") return { kind: "left_running", reason: "fenced" };
  if (claimed.fence !== null) claimed.markReleased();
  if (end.kind === "not_running") return { kind: "not_pending" };
  // The row as committed: what this end wrote over the started row, and what the database decided.
  // (`result` is the strategy's value; the row holds its JSON.)
  const final: Episode = {
    ...episode,
    result: failed ? null : (outcome.result ?? null),
    errorMessage,
    ...end.episode,
  };
  const meta = {
    episode_id: final.id,
    actor_id: final.actorId,
    expectation_id: final.expectationId,
  };
  if (final.status === "pending") {
    // The retry was written: the attempt's failure is counted and logged, the episode goes on.
    const retryMeta = { ...meta, error_class: errorClass ?? "Error" };
    telemetry.emit("cyclium.episode.failed", { count: 1, duration_ms: 0 }, retryMeta);
    logger.warn(
      {
        ...retryMeta,
        attempt: episode.attempt,
        next_attempt: final.attempt,
        delay_ms: retryDelayMs,
      },
      "episode attempt failed; retrying after its backoff",
    );
    return { kind: "retry_scheduled", episode: final };
  }
  if (notify === undefined) await publishEpisodeEvent(bus, final, logger);
  const durationMs =
    final.finishedAt && final.startedAt
      ? final.finishedAt.getTime() - final.startedAt.getTime()
      : 0;
  if (outcome.kind === "completed") {
    telemetry.emit("cyclium.episode.completed", { count: 1, duration_ms: durationMs }, meta);
  } else {
    const failedMeta = { ...meta, error_class: outcome.errorClass };
    telemetry.emit("cyclium.episode.failed", { count: 1, duration_ms: durationMs }, failedMeta);
    // warn, not info (issue 31): a failure is what an operator greps for, and the stack is what
    // they need next; it is the one stored with the attempt (clipped the same way).
    logger.warn({ ...failedMeta, err: failureForLog(outcome) }, "episode failed");
  }
  return {
    kind: outcome.kind,
    episode: final,
    ...(triggerRequestId === undefined ? {} : { requestCompleted: true as const }),
  };
}

/**
 * The failure as an Error for pino's `err` serializer (type, message, stack). The runner keeps
 * class, message and stack rather than the thrown value; a returned failure (`fail(...)`, a
 * budget) has no stack, and gets none rather than one pointing here.
 */
function failureForLog(outcome: Extract<StepLoopOutcome, { kind: "failed" }>): Error {
  const error = new Error(outcome.message);
  error.name = outcome.errorClass;
  if (outcome.stack === undefined) delete error.stack;
  else error.stack = outcome.stack;
  return error;
}

/**
 * The journal's attempt column: the claim's attempt (a node that took the episode over journals
 * under a new one and never collides with the zombie's steps), or the episode's without claims.
 */
export function journalAttempt(episode: Episode, claimed: ClaimedWork): number {
  return claimed.fence === null ? episode.attempt : claimed.attempt;
}
