import type { Logger } from "../telemetry/index";
import type { DeferredRunner } from "../trigger-requests/index";
import type { QueuedEpisode } from "./actor-queue";

/**
 * What a stopping node does with episodes still waiting for a slot: they are pending and only
 * this process knew about them, and recovery sweeps running episodes only. Those a poller
 * dispatched are settled `not_started`, which puts their request back to pending; the others
 * (fired here) become trigger requests, so another full node's poller runs them.
 */
export async function handOverQueued(
  queued: readonly QueuedEpisode[],
  options: { deferred: DeferredRunner | undefined; logger: Logger },
): Promise<void> {
  const fresh = queued.filter((entry) => entry.triggerRequestId === undefined);
  if (fresh.length > 0) {
    if (options.deferred === undefined) {
      options.logger.warn(
        { episodes: fresh.map((entry) => entry.episode.id) },
        "stopping with queued episodes and no deferred runner; they stay pending",
      );
    } else {
      try {
        await options.deferred.deferExisting(
          fresh.map((entry) => ({
            episode: entry.episode,
            opts: {
              ...(entry.recovered ? { recovered: true } : {}),
              ...(entry.resume === undefined ? {} : { resume: entry.resume }),
            },
          })),
        );
        options.logger.info(
          { count: fresh.length },
          "handed queued episodes over as trigger requests",
        );
      } catch (err) {
        options.logger.error(
          { err, count: fresh.length },
          "could not hand queued episodes over; they stay pending",
        );
      }
    }
  }
  for (const entry of queued) entry.settle({ kind: "not_started" });
}
