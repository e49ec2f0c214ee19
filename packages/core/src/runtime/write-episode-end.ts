import type { Bus } from "../bus/index";
import type { ClaimFence } from "../claims/index";
import { withTransaction, type Connectable, type Queryable } from "../db/index";
import { appendStep, finishEpisode, type Episode } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { EPISODE_EVENT_TOPICS, episodeEvent } from "./episode-events";
import type { StepLoopOutcome } from "./run-step-loop";

export interface WriteEpisodeEndOptions {
  db: Queryable & Connectable;
  bus: Bus | undefined;
  episodeId: string;
  outcome: Extract<StepLoopOutcome, { kind: "completed" | "failed" }>;
  fence: ClaimFence | null;
  journalAttempt: number;
  nodeIdentity: string;
  logger: Logger;
  telemetry: Telemetry;
}

export type WriteEpisodeEndResult =
  | { written: true; episode: Episode }
  /** No longer pending or running (e.g. cancelled meanwhile): nothing written. */
  | { written: false; reason: "not_running" }
  /** The claim moved on: nothing written. */
  | { written: false; reason: "fenced" };

class FencedWrite extends Error {}

/**
 * The end of an episode in one transaction: its last step-journal entry, its final status and
 * its `episode.completed` / `episode.failed` bus event (PostgreSQL sends the NOTIFY on commit).
 * Three commits would cost ~2 of the ~7 commits a one-step episode needs; and a crash between
 * them can no longer leave a finished episode whose event was never sent. Fenced throughout.
 */
export async function writeEpisodeEnd(
  options: WriteEpisodeEndOptions,
): Promise<WriteEpisodeEndResult> {
  const { outcome, fence, episodeId, nodeIdentity, logger, telemetry } = options;
  try {
    return await withTransaction(options.db, async (tx) => {
      if (outcome.finalStep !== undefined) {
        const step = await appendStep(
          {
            episodeId,
            fence,
            attempt: options.journalAttempt,
            node: nodeIdentity,
            telemetry,
            logger,
            ...outcome.finalStep,
          },
          tx,
        );
        if (step.fenced) throw new FencedWrite();
      }
      const finished = await finishEpisode(
        {
          episodeId,
          fence,
          executedBy: nodeIdentity,
          telemetry,
          logger,
          ...(outcome.kind === "completed"
            ? { status: "completed", result: outcome.result ?? null }
            : { status: "failed", errorClass: outcome.errorClass, errorMessage: outcome.message }),
        },
        tx,
      );
      if (finished.fenced) throw new FencedWrite();
      if (!finished.finished) return { written: false, reason: "not_running" };
      const episode = finished.episode;
      await options.bus?.publish(
        EPISODE_EVENT_TOPICS[outcome.kind],
        episodeEvent({ ...episode, status: outcome.kind }),
        { tx },
      );
      return { written: true, episode };
    });
  } catch (error) {
    if (error instanceof FencedWrite) return { written: false, reason: "fenced" };
    throw error;
  }
}
