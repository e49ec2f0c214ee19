import { setTimeout as sleep } from "node:timers/promises";
import { classifyDatabaseError } from "../db/index";
import type { Logger, Telemetry } from "../telemetry/index";

/** The runner's writes that are resent after a transient database error. */
export type RetriedWrite = "create" | "start" | "step" | "checkpoint" | "end" | "park";

export interface WriteRetryOptions {
  write: RetriedWrite;
  /**
   * Asked before every resend: true while the claim is still this node's by its own reckoning
   * (the lease has not lapsed since the last renew) and the node is not hard-stopping. Once it
   * says false the last error is thrown: the episode is given up to recovery.
   */
  mayRetry: () => boolean;
  /** Cuts a backoff pause short (the claim's or the node's abort signal). */
  signal?: AbortSignal;
  telemetry: Telemetry;
  logger: Logger;
  /** Log and telemetry context (episode_id, ...). */
  meta: Record<string, unknown>;
  /** First pause; doubled after every failure up to maxDelayMs. Default 100 ms. */
  initialDelayMs?: number;
  /** Default 2 s: a `pg_ctl -m immediate` restart is down 1-3 s, so ~6 resends span it. */
  maxDelayMs?: number;
}

/**
 * Runs `write`, and sends it again after a transient database error (a dropped connection, a
 * server restarting, a serialization failure; see classifyDatabaseError) with exponential backoff
 * and jitter, for as long as `mayRetry` allows. Any other error is thrown at once: a bug or a
 * constraint violation does not get better by repetition.
 *
 * `write` gets `resend: true` from the second call on. The first call may have committed with its
 * reply lost (an ambiguous commit), so every retried write is idempotent and fenced by the
 * claim's attempt, and a resend recognises its own earlier commit as success.
 */
export async function retryTransient<T>(
  write: (resend: boolean) => Promise<T>,
  options: WriteRetryOptions,
): Promise<T> {
  const initial = options.initialDelayMs ?? 100;
  const max = options.maxDelayMs ?? 2000;
  for (let retry = 0; ; retry += 1) {
    try {
      return await write(retry > 0);
    } catch (error) {
      const verdict = classifyDatabaseError(error);
      if (verdict.kind === "permanent") throw error;
      if (!options.mayRetry() || options.signal?.aborted === true) {
        options.logger.warn(
          { ...options.meta, err: error, write: options.write, retries: retry },
          "episode write failed on a transient database error; the claim is no longer held by our reckoning, giving up",
        );
        throw error;
      }
      const ceiling = Math.min(max, initial * 2 ** Math.min(retry, 20));
      // Equal jitter: half the pause fixed, half random, so the episodes of one node that all
      // failed on the same restart do not reconnect in lockstep.
      const delayMs = Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
      options.telemetry.emit(
        "cyclium.episode.write_retry",
        { count: 1, delay_ms: delayMs },
        { ...options.meta, write: options.write, error_code: verdict.code, retry: retry + 1 },
      );
      const log = { ...options.meta, write: options.write, error_code: verdict.code, delayMs };
      // The first resend is worth a warning; the next ones of the same outage only repeat it.
      if (retry === 0) options.logger.warn(log, "transient database error; resending the write");
      else options.logger.debug({ ...log, retry: retry + 1 }, "resending the write again");
      try {
        await sleep(delayMs, undefined, options.signal ? { signal: options.signal } : {});
      } catch {
        throw error; // aborted while waiting: the claim is gone or the node stops
      }
      if (!options.mayRetry()) throw error;
    }
  }
}

/**
 * Retry options for one of an episode's writes. `signal` is the claim's (aborted when it is
 * lost or lapses, or the node hard-stops) or, before and after the heartbeat, the node's; no
 * write is resent once it fired.
 */
export function episodeWriteRetry(
  write: RetriedWrite,
  episode: { id: string; actorId: string },
  guard: { mayRetry: () => boolean; signal: AbortSignal },
  node: { telemetry: Telemetry; logger: Logger },
): WriteRetryOptions {
  const { signal } = guard;
  return {
    write,
    mayRetry: () => !signal.aborted && guard.mayRetry(),
    signal,
    telemetry: node.telemetry,
    logger: node.logger,
    meta: { episode_id: episode.id, actor_id: episode.actorId },
  };
}
