import type { Bus } from "../bus/index";
import type { Queryable } from "../db/index";
import { finishEpisode, type Episode } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { publishEpisodeEvent } from "../episodes/episode-events";
import { RUNTIME_ERROR_CLASSES } from "./error-classes";

/**
 * Cancels a queued episode that `episodeOverflow: 'shed_oldest'` pushed out, recording why. Not
 * fenced: the episode is pending and nobody holds its claim yet.
 */
export async function cancelShedEpisode(
  episode: Episode,
  options: {
    db: Queryable;
    bus: Bus | undefined;
    limit: number;
    logger: Logger;
    telemetry: Telemetry;
  },
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
