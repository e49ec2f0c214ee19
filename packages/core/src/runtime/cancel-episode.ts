import type { Bus } from "../bus/index";
import type { Queryable } from "../db/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "../episodes/episode-row";
import type { Logger } from "../telemetry/index";
import { publishEpisodeEvent } from "./episode-events";

export interface CancelEpisodeOptions {
  episodeId: string;
  errorClass: string;
  reason: string;
  bus?: Bus | undefined;
  logger: Logger;
}

// One statement: the episode goes `cancelled`, its claim `failed` and its open trigger requests
// `completed`. A running episode is stopped through its claim, wherever it runs: the executing
// node's next heartbeat renew gets `not_owner` and aborts the strategy's signal, and its fenced
// journal and final-status writes (which need the claim still `claimed`) are refused.
const SQL = `
WITH cancelled AS (
  UPDATE cyclium_episodes
     SET status = 'cancelled', error_class = $2, error_message = $3,
         finished_at = now(), queued_by = NULL, queued_at = NULL, updated_at = now()
   WHERE id = $1 AND status IN ('pending', 'running')
  RETURNING ${episodeColumns()}
), claim AS (
  UPDATE cyclium_work_claims c
     SET state = 'failed', error_detail = $3, updated_at = now()
    FROM cancelled
   WHERE c.dedupe_key = COALESCE(cancelled.dedupe_key, 'episode:' || cancelled.id::text)
     AND c.state = 'claimed'
  RETURNING c.id
), requests AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'completed', completed_at = now(), updated_at = now()
    FROM cancelled
   WHERE r.episode_id = cancelled.id AND r.status IN ('pending', 'claimed')
  RETURNING r.id
)
SELECT * FROM cancelled`;

/**
 * Cancels a pending or running episode cluster-wide (a workflow abort cancelling its running
 * siblings); undefined when it had already finished. Publishes `episode.cancelled`.
 */
export async function cancelEpisode(
  options: CancelEpisodeOptions,
  db: Queryable,
): Promise<Episode | undefined> {
  const result = await db.query<EpisodeRow>(SQL, [
    options.episodeId,
    options.errorClass,
    options.reason,
  ]);
  const row = result.rows[0];
  if (row === undefined) return undefined;
  const episode = toEpisode(row);
  options.logger.info({ episode_id: episode.id, reason: options.reason }, "episode cancelled");
  await publishEpisodeEvent(options.bus, episode, options.logger);
  return episode;
}
