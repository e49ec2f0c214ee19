import type { Logger } from "../telemetry/index";
import type { DeferredRunner } from "../deferred/index";
import type { QueuedEpisode } from "./actor-queue";
import type { QueueBacklog } from "./queue-backlog";

interface HandOverOptions {
  deferred?: DeferredRunner | undefined;
  logger: Logger;
}

/**
 * What a stopping node does with episodes still waiting for a slot: they are pending and only
 * this process knew about them, and recovery sweeps running episodes only. Those a poller
 * dispatched are settled `not_started`, which puts their request back to pending; the others
 * (fired here) become trigger requests, so another full node's poller runs them.
 */
export async function handOverQueued(
  queued: readonly QueuedEpisode[],
  options: HandOverOptions,
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

/**
 * A stopping node's whole in-memory queue. Owned entries are rows naming this node: one statement
 * hands all of them over as trigger requests, with those never taken into memory; the others go
 * as above. A failed statement is logged: other nodes adopt the rows once this node is stopped.
 */
export async function handOverQueue(
  queued: readonly QueuedEpisode[],
  options: HandOverOptions & { backlog: Pick<QueueBacklog, "deferOwned"> },
): Promise<void> {
  await handOverQueued(
    queued.filter((entry) => !entry.owned),
    options,
  );
  for (const entry of queued) if (entry.owned) entry.settle({ kind: "not_started" });
  await options.backlog
    .deferOwned({})
    .then((count) => {
      if (count > 0) options.logger.info({ count }, "handed the queue over as trigger requests");
    })
    .catch((err: unknown) =>
      options.logger.error(
        { err },
        "could not hand the queue over; other nodes adopt it once this node is stopped",
      ),
    );
}

/**
 * Queued entries of an actor that may no longer run here (its mode changed), taken out of memory.
 * Owned rows are handed over by the reconcile that asked; a poller's request goes back to pending
 * when its entry settles `not_started`; the rest become trigger requests (not awaited).
 */
export function handOverUnrunnable(
  taken: readonly QueuedEpisode[],
  options: HandOverOptions,
): void {
  const unowned = taken.filter((entry) => !entry.owned && !entry.triggerRequestId);
  void handOverQueued(unowned, options);
  for (const entry of taken)
    if (entry.owned || entry.triggerRequestId) entry.settle({ kind: "not_started" });
}
