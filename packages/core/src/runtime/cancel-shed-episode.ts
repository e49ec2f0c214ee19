import type { Bus } from "../bus/index";
import type { Queryable } from "../db/index";
import { finishEpisode, type Episode } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { publishEpisodeEvent } from "../episodes/episode-events";
import type { QueuedEpisode } from "./actor-queue";
import { RUNTIME_ERROR_CLASSES } from "./error-classes";

export interface CancelShedOptions {
  db: Queryable;
  bus?: Bus | undefined;
  /** The actor's maxQueuedEpisodes, named in the recorded reason. */
  limit: number;
  logger: Logger;
  telemetry: Telemetry;
}

/**
 * Cancels the queued entry `shed_oldest` pushed out, in the background (the arrival that shed it
 * does not wait), and settles it `shed` whether or not the cancel committed (a failure is logged).
 * `undefined`: nothing could be shed (only recovered episodes wait), so nothing happens.
 */
export function shedQueuedEpisode(
  shed: QueuedEpisode | undefined,
  options: CancelShedOptions,
): void {
  if (shed === undefined) return;
  void cancelShedEpisode(shed.episode, options)
    .catch((err: unknown) =>
      options.logger.warn({ err, episode_id: shed.episode.id }, "could not cancel shed episode"),
    )
    .finally(() => shed.settle({ kind: "shed" }));
}

/**
 * Cancels a queued episode that `episodeOverflow: 'shed_oldest'` pushed out, recording why. Not
 * fenced: the episode is pending and nobody holds its claim yet.
 */
export async function cancelShedEpisode(
  episode: Episode,
  options: CancelShedOptions,
): Promise<void> {
  const finished = await finishEpisode(
    {
      episodeId: episode.id,
      fence: null,
      status: "cancelled",
      errorClass: RUNTIME_ERROR_CLASSES.shed,
      errorMessage: `Shed from the full queue of actor ${episode.actorId} (maxQueuedEpisodes ${options.limit}) to make room for a newer episode.`,
      telemetry: options.telemetry,
      logger: options.logger,
    },
    options.db,
  );
  if (finished.kind !== "finished") return;
  options.logger.info({ episode_id: episode.id, actor_id: episode.actorId }, "queued episode shed");
  await publishEpisodeEvent(options.bus, finished.episode, options.logger);
}
