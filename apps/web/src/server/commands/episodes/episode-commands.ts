import {
  createBusPublisher,
  archiveEpisode as archiveEpisodeInCore,
  cancelEpisode as cancelEpisodeInCore,
  retryEpisode as retryEpisodeInCore,
  type Episode,
  type EpisodeCommandResult,
  CycliumError,
} from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core/console";

export interface TEpisodeCommandResult {
  id: string;
  status: string;
  attempt: number;
}

/**
 * The console's side of core's operator commands: core changes the episode (and publishes what
 * the runtime publishes); this maps its `kind` to the answer or the expected error the operator
 * sees. `conflict` says why from the episode as core found it.
 */
function answer(
  result: EpisodeCommandResult<"cancelled" | "retried" | "archived">,
  conflictMessage: (episode: Episode) => string,
): TEpisodeCommandResult {
  switch (result.kind) {
    case "not_found":
      throw new CycliumError("not_found", `No episode ${result.episodeId}.`);
    case "conflict":
      throw new CycliumError("conflict", conflictMessage(result.episode));
    case "cancelled":
    case "retried":
    case "archived": {
      const { episode } = result;
      return { id: result.episodeId, status: episode.status, attempt: episode.attempt };
    }
  }
}

/**
 * Runs a failed or cancelled episode again as its next attempt (core's `retryEpisode`): back to
 * `pending`, with a trigger request that a full-mode worker picks up (the console never
 * executes). The request and its wake-up commit together with the audit row (`db` is the
 * transaction).
 */
export async function retryEpisode(options: {
  db: Queryable;
  id: string;
  by: string;
  sourceNode: string;
}): Promise<TEpisodeCommandResult> {
  const result = await retryEpisodeInCore(
    { episodeId: options.id, by: options.by, sourceNode: options.sourceNode },
    options.db,
  );
  return answer(result, (episode) =>
    episode.archivedAt !== null
      ? "This episode is archived; archived episodes are history."
      : `Only failed or cancelled episodes can be retried; this one is ${episode.status}.`,
  );
}

/**
 * Cancels a pending or running episode (core's `cancelEpisode`, the one the runtime uses): a
 * running one is stopped through its claim, and `episode.cancelled` is published on the cluster
 * bus when the transaction commits, so a workflow waiting on the step moves on at once.
 */
export async function cancelEpisode(options: {
  db: Queryable;
  id: string;
  by: string;
  sourceNode: string;
}): Promise<TEpisodeCommandResult> {
  const result = await cancelEpisodeInCore(
    {
      episodeId: options.id,
      reason: `Cancelled by ${options.by}.`,
      bus: createBusPublisher({ db: options.db, nodeIdentity: options.sourceNode }),
    },
    options.db,
  );
  return answer(
    result,
    (episode) =>
      `Only pending or running episodes can be cancelled; this one is ${episode.status}.`,
  );
}

/** Hides a finished episode from the lists and frees its dedupe key (core's `archiveEpisode`). */
export async function archiveEpisode(options: {
  db: Queryable;
  id: string;
}): Promise<TEpisodeCommandResult> {
  const result = await archiveEpisodeInCore({ episodeId: options.id }, options.db);
  return answer(result, (episode) =>
    episode.archivedAt !== null
      ? "This episode is already archived."
      : `Only finished episodes can be archived; this one is ${episode.status}. Cancel it first.`,
  );
}
