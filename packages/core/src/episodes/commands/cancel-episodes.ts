import type { Bus } from "../../bus/types";
import { claimKeySql } from "../../claims/claim-key";
import type { Queryable } from "../../db/index";
import { silentLogger, type Logger } from "../../telemetry/index";
import { publishEpisodeEvent } from "../episode-events";
import { episodeColumns, type EpisodeRow } from "../episode-row";
import { resultsInOrder, splitChanged, type CancelEpisodeResult } from "./episode-command-result";

export interface CancelEpisodesOptions {
  episodeIds: readonly string[];
  /** `error_class` of the cancelled episodes; `cancelled` by default. */
  errorClass?: string | undefined;
  /** `error_message` of the episodes and `error_detail` of their failed claims. */
  reason: string;
  /** Where `episode.cancelled` is published; with none (a bus-less test) nothing is. */
  bus?: Pick<Bus, "publish"> | undefined;
  logger?: Logger | undefined;
}

export interface CancelEpisodeOptions extends Omit<CancelEpisodesOptions, "episodeIds"> {
  episodeId: string;
}

// One statement for any number of episodes: they go `cancelled` (leaving any node's queue:
// queued_by cleared), their claims `failed` and their open trigger requests `completed`. A
// running episode is stopped through its claim, wherever it runs: the executing node's next
// heartbeat renew gets `not_owner` and aborts the strategy's signal, and its fenced journal and
// final-status writes (which need the claim still `claimed`) are refused. The rows are locked in
// id order first, so two bulk cancels over overlapping ids cannot deadlock; `changed` tells the
// cancelled rows from those found in a status that cannot be cancelled.
const SQL = `
WITH locked AS (
  SELECT ${episodeColumns()} FROM cyclium_episodes
   WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE
), cancelled AS (
  UPDATE cyclium_episodes e
     SET status = 'cancelled', error_class = $2, error_message = $3,
         finished_at = now(), queued_by = NULL, queued_at = NULL, lease_until = NULL,
         updated_at = now()
    FROM locked
   WHERE e.id = locked.id AND locked.status IN ('pending', 'running', 'waiting')
  RETURNING ${episodeColumns("e")}
), claim AS (
  UPDATE cyclium_work_claims c
     SET state = 'failed', error_detail = $3, updated_at = now()
    FROM cancelled
   WHERE c.dedupe_key = ${claimKeySql("cancelled")} AND c.state = 'claimed'
  RETURNING c.id
), requests AS (
  UPDATE cyclium_trigger_requests r
     SET status = 'completed', completed_at = now(), updated_at = now()
    FROM cancelled
   WHERE r.episode_id = cancelled.id AND r.status IN ('pending', 'claimed')
  RETURNING r.id
)
SELECT ${episodeColumns()}, true AS changed FROM cancelled
UNION ALL
SELECT ${episodeColumns("l")}, false AS changed FROM locked l
 WHERE NOT EXISTS (SELECT 1 FROM cancelled c WHERE c.id = l.id)`;

/**
 * Cancels pending or running episodes cluster-wide, one result per id (`cancelled`, `conflict`
 * when it had already finished, `not_found`). Used by the workflow engine (an abort cancels the
 * running siblings) and by the console's operators alike: each cancelled episode's
 * `episode.cancelled` is published on `bus`, so a workflow cannot tell who cancelled its step.
 * In a transaction (`db`), the events are delivered when it commits.
 */
export async function cancelEpisodes(
  options: CancelEpisodesOptions,
  db: Queryable,
): Promise<CancelEpisodeResult[]> {
  if (options.episodeIds.length === 0) return [];
  const logger = options.logger ?? silentLogger;
  const { rows } = await db.query<EpisodeRow & { changed: boolean }>(SQL, [
    options.episodeIds,
    options.errorClass ?? "cancelled",
    options.reason,
  ]);
  const { changed, unchanged } = splitChanged(rows);
  for (const episode of changed.values()) {
    logger.info({ episode_id: episode.id, reason: options.reason }, "episode cancelled");
    await publishEpisodeEvent(options.bus, episode, logger, db);
  }
  return resultsInOrder("cancelled", options.episodeIds, changed, unchanged);
}

/** `cancelEpisodes` for one episode. */
export async function cancelEpisode(
  options: CancelEpisodeOptions,
  db: Queryable,
): Promise<CancelEpisodeResult> {
  const { episodeId, ...rest } = options;
  const [result] = await cancelEpisodes({ ...rest, episodeIds: [episodeId] }, db);
  return result ?? { kind: "not_found", episodeId };
}
