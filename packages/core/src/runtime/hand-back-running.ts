import { MicroBatcher } from "../batching/micro-batcher";
import type { ClaimedWork } from "../claims/index";
import type { Queryable } from "../db/index";
import { assertNever } from "../errors/index";
import {
  handBackEpisodes,
  type Episode,
  type EpisodeHandBack,
  type HandBackEpisodesOutcome,
} from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { TRIGGER_REQUESTS_CHANNEL } from "../deferred/index";
import type { EpisodeRunResult } from "./episode-run-result";

export interface RunningHandBacksOptions {
  db: Queryable;
  nodeIdentity: string;
  telemetry: Telemetry;
  logger: Logger;
}

/**
 * A stopping node's running episodes that will not finish here: handed back to pending at once
 * (handBackEpisodes), so another worker resumes them from their newest checkpoint within a poll's
 * wake-up, instead of a recovery sweep finding them stale minutes later. A node's stop interrupts
 * all its episodes at the same step boundary or grace deadline, so their hand-backs go out
 * together as one statement.
 */
export class RunningHandBacks {
  readonly #o: RunningHandBacksOptions;
  readonly #batcher: MicroBatcher<EpisodeHandBack, HandBackEpisodesOutcome>;

  constructor(options: RunningHandBacksOptions) {
    this.#o = options;
    this.#batcher = new MicroBatcher({ run: (items) => this.#write(items) });
  }

  /**
   * Hands one episode back. Undefined when it was not (claims off, the claim lost meanwhile, or
   * the write failed): the caller leaves it `running` for recovery, as before. Sent once: a
   * resend after a commit whose reply was lost would find the claim released (`fenced`).
   */
  async handBack(
    episode: Episode,
    claimed: ClaimedWork,
    run: { stepsDone: number | null; triggerRequestId?: string | undefined },
  ): Promise<EpisodeRunResult | undefined> {
    if (claimed.fence === null) return undefined;
    const meta = { episode_id: episode.id, actor_id: episode.actorId };
    // The hand-back releases the claim: a renew arriving after it would report a lost claim.
    await claimed.stopHeartbeat();
    let outcome: HandBackEpisodesOutcome;
    try {
      outcome = await this.#batcher.add({
        episodeId: episode.id,
        fence: claimed.fence,
        stepsDone: run.stepsDone,
        ...(run.triggerRequestId === undefined ? {} : { triggerRequestId: run.triggerRequestId }),
      });
    } catch (err) {
      this.#o.logger.warn({ ...meta, err }, "could not hand a running episode back; left running");
      return undefined;
    }
    switch (outcome.kind) {
      case "handed_back":
        claimed.markReleased();
        return { kind: "handed_back" };
      case "not_running":
        claimed.markReleased();
        return { kind: "not_pending" };
      case "fenced":
        return undefined;
      default:
        return assertNever(outcome, "hand-back outcome");
    }
  }

  async #write(items: EpisodeHandBack[]): Promise<HandBackEpisodesOutcome[]> {
    const { db, nodeIdentity, telemetry, logger } = this.#o;
    const outcomes = await handBackEpisodes(
      {
        node: nodeIdentity,
        episodes: items,
        wake: { channel: TRIGGER_REQUESTS_CHANNEL, payload: "{}" },
      },
      db,
    );
    const handed: string[] = [];
    items.forEach((item, index) => {
      const kind = outcomes[index]?.kind;
      if (kind === "handed_back") handed.push(item.episodeId);
      if (kind === "handed_back" || kind === "not_running") {
        // Released without failure, as an unstart's release is counted.
        telemetry.emit(
          "cyclium.work_claims.completed",
          { count: 1 },
          { dedupe_key: item.fence.dedupeKey, owner_node: nodeIdentity },
        );
      }
    });
    if (handed.length > 0) {
      logger.info(
        { count: handed.length, episodes: handed },
        "node stopping; running episodes handed back to pending for another worker",
      );
    }
    return outcomes;
  }
}
