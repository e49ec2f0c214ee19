import type { ClaimFence } from "../claims/index";
import type { Queryable } from "../db/index";
import { unstartEpisodes } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type { StartedRequestedEpisode } from "./start-requested-episodes";
import { TRIGGER_REQUESTS_CHANNEL, type TTriggerRequestOpts } from "./trigger-request";

/** An episode started here under its own lease: its fence and when its start was sent. */
export interface StartedEpisodeLease {
  fence: ClaimFence;
  /** `performance.now()` just before the start statement was sent (its lease counts from it). */
  leaseStartedAt: number;
}

/** What dispatchStartedEpisodes needs of the node's actor host (see PollerHost.dispatch). */
export interface StartedEpisodeHost {
  dispatch(
    episode: StartedRequestedEpisode["episode"],
    opts: TTriggerRequestOpts & { triggerRequestId: string; started: StartedEpisodeLease },
  ): { kind: "queued"; settled: Promise<unknown> } | { kind: string };
}

export interface DispatchStartedEpisodesOptions {
  db: Queryable;
  host: StartedEpisodeHost;
  nodeIdentity: string;
  started: readonly StartedRequestedEpisode[];
  leaseStartedAt: number;
  /** How long the start statement took (the leases' `cyclium.work_claims.acquired`). */
  startDurationMs: number;
  logger: Logger;
  telemetry: Telemetry;
}

/**
 * Hands episodes the poller started from their requests (startRequestedEpisodes) to the actor
 * host: each already runs here under its own lease and its request is consumed, so nothing is
 * left to settle with the request when it ends. One the host does not take (the node began to
 * stop meanwhile) goes back to pending at once with a new request (unstartEpisodes, in one
 * statement for all of them), as an episode started ahead that gets no slot does.
 *
 * Returns the promises of the dispatched runs (the poller's drain waits for them).
 */
export async function dispatchStartedEpisodes(
  options: DispatchStartedEpisodesOptions,
): Promise<Promise<unknown>[]> {
  const { host, logger, telemetry, nodeIdentity } = options;
  const runs: Promise<unknown>[] = [];
  const refused: StartedRequestedEpisode[] = [];
  for (const started of options.started) {
    const { episode, requestId } = started;
    // The same event a claim row's acquire emits: the lease is taken, in the episode's row.
    telemetry.emit(
      "cyclium.work_claims.acquired",
      { count: 1, duration_ms: options.startDurationMs },
      { dedupe_key: started.fence.dedupeKey, owner_node: nodeIdentity, attempt: episode.attempt },
    );
    const dispatched = host.dispatch(episode, {
      ...started.opts,
      triggerRequestId: requestId,
      started: { fence: started.fence, leaseStartedAt: options.leaseStartedAt },
    });
    if (!("settled" in dispatched)) {
      logger.warn(
        { request_id: requestId, episode_id: episode.id, reason: dispatched.kind },
        "could not dispatch a started episode; putting it back to pending",
      );
      refused.push(started);
      continue;
    }
    telemetry.emit(
      "cyclium.trigger_request.dispatched",
      { count: 1, duration_ms: Date.now() - started.insertedAt.getTime() },
      { request_id: requestId, episode_id: episode.id, actor_id: episode.actorId },
    );
    runs.push(dispatched.settled.catch(() => undefined));
  }
  if (refused.length > 0) {
    await unstartEpisodes(
      {
        node: nodeIdentity,
        episodes: refused.map(({ episode, fence, opts }) => ({
          episodeId: episode.id,
          fence,
          requestOpts: {
            ...(opts.recovered === true ? { recovered: true as const } : {}),
            ...(opts.resume === undefined ? {} : { resume: opts.resume }),
          },
        })),
        wake: { channel: TRIGGER_REQUESTS_CHANNEL, payload: "{}" },
      },
      options.db,
    );
  }
  return runs;
}
