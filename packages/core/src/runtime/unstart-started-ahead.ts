import { MicroBatcher } from "../batching/micro-batcher";
import type { ClaimedWork } from "../claims/index";
import type { Queryable } from "../db/index";
import { assertNever } from "../errors/index";
import {
  unstartEpisodes,
  type Episode,
  type EpisodeUnstart,
  type UnstartEpisodesOutcome,
} from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../deferred/index";
import type { EpisodeRunResult } from "./episode-run-result";

export interface StartedAheadUnstartsOptions {
  db: Queryable;
  nodeIdentity: string;
  telemetry: Telemetry;
  logger: Logger;
}

/**
 * Puts episodes started ahead of a free slot that get none (their actor may no longer run here,
 * or the node's stop aborted at its grace period) back to pending at once, instead of leaving them
 * `running` with failed claims for recovery's stale threshold (120 s by default) and a restart
 * marked `recovered`. Their strategy never ran, so nothing of theirs needs recovering.
 *
 * A mode switch interrupts all of an actor's started-ahead episodes in one turn, so their unstarts
 * go out as one statement (unstartEpisodes). Nothing is published on the bus: the start of an
 * episode started ahead published nothing either (`episode.started` telemetry is emitted when its
 * strategy gets a slot), so a live feed saw it queued, and it is queued again; the claim's release
 * is counted as `cyclium.work_claims.completed`, like any claim released without failure.
 */
export class StartedAheadUnstarts {
  readonly #o: StartedAheadUnstartsOptions;
  readonly #batcher: MicroBatcher<EpisodeUnstart, UnstartEpisodesOutcome>;

  constructor(options: StartedAheadUnstartsOptions) {
    this.#o = options;
    this.#batcher = new MicroBatcher({ run: (items) => this.#write(items) });
  }

  /**
   * Unstarts one episode this runner started and whose strategy never ran. Undefined when it was
   * not (claims off, the claim lost meanwhile, or the write failed): the caller leaves it
   * `running` for recovery, as before. Sent once, never resent: a resend after a commit whose
   * reply was lost would find the claim released and answer `fenced`, which is as safe.
   */
  async unstart(
    episode: Episode,
    claimed: ClaimedWork,
    run: { recovered?: boolean; resume?: unknown; triggerRequestId?: string },
  ): Promise<EpisodeRunResult | undefined> {
    if (claimed.fence === null) return undefined;
    const meta = { episode_id: episode.id, actor_id: episode.actorId };
    // The unstart releases the claim: a renew arriving after it would report a lost claim.
    await claimed.stopHeartbeat();
    let outcome: UnstartEpisodesOutcome;
    try {
      outcome = await this.#batcher.add({
        episodeId: episode.id,
        fence: claimed.fence,
        ...(run.triggerRequestId === undefined ? {} : { triggerRequestId: run.triggerRequestId }),
        requestOpts: {
          ...(run.recovered === true ? { recovered: true as const } : {}),
          ...(run.resume === undefined ? {} : { resume: run.resume }),
        },
      });
    } catch (err) {
      this.#o.logger.warn(
        { ...meta, err },
        "could not put a started-ahead episode back to pending",
      );
      return undefined;
    }
    switch (outcome.kind) {
      case "unstarted":
        claimed.markReleased();
        return { kind: "unstarted" };
      case "not_running":
        claimed.markReleased();
        return { kind: "not_pending" };
      case "fenced":
        return undefined;
      default:
        return assertNever(outcome, "unstart outcome");
    }
  }

  async #write(items: EpisodeUnstart[]): Promise<UnstartEpisodesOutcome[]> {
    const { db, nodeIdentity, telemetry, logger } = this.#o;
    const outcomes = await unstartEpisodes(
      {
        node: nodeIdentity,
        episodes: items,
        wake: { channel: TRIGGER_REQUESTS_CHANNEL, payload: "{}" },
      },
      db,
    );
    let unstarted = 0;
    items.forEach((item, index) => {
      const kind = outcomes[index]?.kind;
      if (kind === "unstarted") unstarted += 1;
      if (kind === "unstarted" || kind === "not_running") {
        telemetry.emit(
          "cyclium.work_claims.completed",
          { count: 1 },
          { dedupe_key: item.fence.dedupeKey, owner_node: nodeIdentity },
        );
      }
    });
    if (unstarted > 0) {
      logger.info(
        { count: unstarted },
        "started-ahead episodes got no slot here; pending again as trigger requests",
      );
    }
    return outcomes;
  }
}
