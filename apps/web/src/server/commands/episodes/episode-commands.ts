import { CycliumError } from "@cyclium/core/errors";
import { insertTriggerRequests, TRIGGER_REQUESTS_CHANNEL } from "@cyclium/core/trigger-requests";
import type { TQueryable } from "../../queries/queryable";
import { claimKeyOf } from "../../queries/episodes/get-episode-detail";

interface EpisodeStateRow {
  id: string;
  actor_id: string;
  expectation_id: string;
  status: string;
  attempt: number;
  dedupe_key: string | null;
  source_stack: string | null;
  source_env: string | null;
  archived_at: Date | null;
}

async function lockEpisode(db: TQueryable, id: string): Promise<EpisodeStateRow> {
  const { rows } = await db.query<EpisodeStateRow>(
    `SELECT id, actor_id, expectation_id, status, attempt, dedupe_key, source_stack, source_env,
            archived_at
       FROM cyclium_episodes WHERE id = $1 FOR UPDATE`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) throw new CycliumError("not_found", `No episode ${id}.`);
  return row;
}

export interface TEpisodeCommandResult {
  id: string;
  status: string;
  attempt: number;
}

/**
 * Runs a failed or cancelled episode again as its next attempt: back to `pending`, with a
 * deferred trigger request that a full-mode worker picks up (the console never executes). The
 * request and its wake-up NOTIFY commit together with the audit row (`db` is the transaction).
 * The step journal keeps every attempt, so the timeline shows the failed run and the retry.
 */
export async function retryEpisode(options: {
  db: TQueryable;
  id: string;
  by: string;
  sourceNode: string;
}): Promise<TEpisodeCommandResult> {
  const { db, id } = options;
  const episode = await lockEpisode(db, id);
  if (episode.archived_at !== null) {
    throw new CycliumError("conflict", "This episode is archived; archived episodes are history.");
  }
  if (episode.status !== "failed" && episode.status !== "cancelled") {
    throw new CycliumError(
      "conflict",
      `Only failed or cancelled episodes can be retried; this one is ${episode.status}.`,
    );
  }
  const { rows } = await db.query<{ attempt: number }>(
    `UPDATE cyclium_episodes
        SET status = 'pending', phase = NULL, attempt = attempt + 1, error_class = NULL,
            error_message = NULL, result = NULL, started_at = NULL, finished_at = NULL,
            executed_by = NULL, queued_by = NULL, queued_at = NULL, updated_at = now(),
            recovery_history = recovery_history || jsonb_build_array(jsonb_build_object(
              'at', now(), 'node', $2::text, 'policy', 'operator', 'outcome', 'retried',
              'attempt', attempt + 1))
      WHERE id = $1
      RETURNING attempt`,
    [id, `operator:${options.by}`],
  );
  await insertTriggerRequests(
    {
      sourceNode: options.sourceNode,
      requests: [
        {
          episodeId: id,
          actorId: episode.actor_id,
          expectationId: episode.expectation_id,
          sourceStack: episode.source_stack,
          sourceEnv: episode.source_env,
        },
      ],
    },
    db,
  );
  await db.query("SELECT pg_notify($1, $2)", [
    TRIGGER_REQUESTS_CHANNEL,
    JSON.stringify({ stack: episode.source_stack, env: episode.source_env }),
  ]);
  return { id, status: "pending", attempt: rows[0]?.attempt ?? episode.attempt + 1 };
}

/**
 * Cancels a pending or running episode. A running one is stopped through its claim: the claim
 * is marked `failed`, so the executing node's next heartbeat renew gets `not_owner` and aborts
 * the episode, and its fenced journal and final-status writes (which require the claim to be
 * still `claimed` at its attempt) are refused. Open trigger requests are settled.
 */
export async function cancelEpisode(options: {
  db: TQueryable;
  id: string;
  by: string;
}): Promise<TEpisodeCommandResult> {
  const { db, id } = options;
  const episode = await lockEpisode(db, id);
  if (episode.status !== "pending" && episode.status !== "running") {
    throw new CycliumError(
      "conflict",
      `Only pending or running episodes can be cancelled; this one is ${episode.status}.`,
    );
  }
  await db.query(
    `UPDATE cyclium_episodes
        SET status = 'cancelled', error_class = 'cancelled', error_message = $2,
            finished_at = now(), queued_by = NULL, queued_at = NULL, updated_at = now()
      WHERE id = $1`,
    [id, `Cancelled by ${options.by}.`],
  );
  await db.query(
    `UPDATE cyclium_work_claims
        SET state = 'failed', error_detail = $2, updated_at = now()
      WHERE dedupe_key = $1 AND state = 'claimed'`,
    [claimKeyOf({ id, dedupeKey: episode.dedupe_key }), `cancelled by ${options.by}`],
  );
  await db.query(
    `UPDATE cyclium_trigger_requests
        SET status = 'completed', completed_at = now(), updated_at = now()
      WHERE episode_id = $1 AND status IN ('pending', 'claimed')`,
    [id],
  );
  return { id, status: "cancelled", attempt: episode.attempt };
}

/**
 * Hides a finished episode from the lists and frees its dedupe key: an archived episode no
 * longer blocks the same trigger from creating a new one (SPEC section 3).
 */
export async function archiveEpisode(options: {
  db: TQueryable;
  id: string;
}): Promise<TEpisodeCommandResult> {
  const episode = await lockEpisode(options.db, options.id);
  if (episode.archived_at !== null) {
    throw new CycliumError("conflict", "This episode is already archived.");
  }
  if (episode.status === "pending" || episode.status === "running") {
    throw new CycliumError(
      "conflict",
      `Only finished episodes can be archived; this one is ${episode.status}. Cancel it first.`,
    );
  }
  await options.db.query(
    "UPDATE cyclium_episodes SET archived_at = now(), updated_at = now() WHERE id = $1",
    [options.id],
  );
  return { id: options.id, status: episode.status, attempt: episode.attempt };
}
