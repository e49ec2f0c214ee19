import { claimKeySql } from "../claims/claim-key";
import type { Queryable } from "../db/index";
import { insertTriggerRequests } from "../deferred/insert-trigger-requests";
import { wakeTriggerRequestPollers } from "../deferred/wake-trigger-request-pollers";
import { episodeColumns, type EpisodeRow } from "../episodes/episode-row";
import {
  resultsInOrder,
  splitChanged,
  type RetryEpisodeResult,
} from "../episodes/commands/episode-command-result";
import { inTransaction } from "../episodes/commands/in-transaction";

export interface RetryEpisodesOptions {
  episodeIds: readonly string[];
  /** Who asked, recorded in `recovery_history` as node `operator:{by}`. */
  by: string;
  /** The writing node of the trigger requests (`source_node`). */
  sourceNode: string;
}

export interface RetryEpisodeOptions extends Omit<RetryEpisodesOptions, "episodeIds"> {
  episodeId: string;
}

// One statement for any number of episodes: a failed or cancelled, unarchived episode goes back
// to `pending` as its next attempt, out of any node's queue (its trigger request, written next,
// is its only owner), its outcome cleared and the retry recorded in recovery_history. A claim
// still `claimed` under the key (a zombie run of the old attempt) is failed, so that run is
// aborted and the retry can acquire the key. Rows are locked in id order against deadlocks.
const SQL = `
WITH locked AS (
  SELECT ${episodeColumns()} FROM cyclium_episodes
   WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE
), retried AS (
  UPDATE cyclium_episodes e
     SET status = 'pending', phase = NULL, attempt = e.attempt + 1, error_class = NULL,
         error_message = NULL, result = NULL, started_at = NULL, finished_at = NULL,
         executed_by = NULL, lease_until = NULL, queued_by = NULL, queued_at = NULL,
         updated_at = now(),
         recovery_history = e.recovery_history || jsonb_build_array(jsonb_build_object(
           'at', now(), 'node', $2::text, 'policy', 'operator', 'outcome', 'retried',
           'attempt', e.attempt + 1))
    FROM locked
   WHERE e.id = locked.id AND locked.archived_at IS NULL
     AND locked.status IN ('failed', 'cancelled')
  RETURNING ${episodeColumns("e")}
), claim AS (
  UPDATE cyclium_work_claims c
     SET state = 'failed', error_detail = 'superseded by an operator retry', updated_at = now()
    FROM retried
   WHERE c.dedupe_key = ${claimKeySql("retried")} AND c.state = 'claimed'
  RETURNING c.id
)
SELECT ${episodeColumns()}, true AS changed FROM retried
UNION ALL
SELECT ${episodeColumns("l")}, false AS changed FROM locked l
 WHERE NOT EXISTS (SELECT 1 FROM retried r WHERE r.id = l.id)`;

/**
 * Runs failed or cancelled episodes again as their next attempt, one result per id (`retried`,
 * `conflict` when pending, running, completed or archived, `not_found`). Each goes back to
 * `pending` with a trigger request that a full-mode node of its scope picks up, and the pollers
 * are woken; all of it in one transaction (the caller's, or one of its own on a pool). The step
 * journal keeps every attempt, so the timeline shows the failed run and the retry.
 */
export async function retryEpisodes(
  options: RetryEpisodesOptions,
  db: Queryable,
): Promise<RetryEpisodeResult[]> {
  if (options.episodeIds.length === 0) return [];
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query<EpisodeRow & { changed: boolean }>(SQL, [
      options.episodeIds,
      `operator:${options.by}`,
    ]);
    const { changed, unchanged } = splitChanged(rows);
    const retried = [...changed.values()];
    await insertTriggerRequests(
      {
        sourceNode: options.sourceNode,
        requests: retried.map((episode) => ({
          episodeId: episode.id,
          actorId: episode.actorId,
          expectationId: episode.expectationId,
          sourceStack: episode.sourceStack,
          sourceEnv: episode.sourceEnv,
        })),
      },
      tx,
    );
    await wakeTriggerRequestPollers(
      { wakeups: retried.map((e) => ({ stack: e.sourceStack, env: e.sourceEnv })) },
      tx,
    );
    return resultsInOrder("retried", options.episodeIds, changed, unchanged);
  });
}

/** `retryEpisodes` for one episode. */
export async function retryEpisode(
  options: RetryEpisodeOptions,
  db: Queryable,
): Promise<RetryEpisodeResult> {
  const { episodeId, ...rest } = options;
  const [result] = await retryEpisodes({ ...rest, episodeIds: [episodeId] }, db);
  return result ?? { kind: "not_found", episodeId };
}
