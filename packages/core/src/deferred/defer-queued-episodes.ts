import type { Queryable } from "../db/index";
import { TRIGGER_REQUESTS_CHANNEL, type TTriggerRequestWakeup } from "./trigger-request";

export interface DeferQueuedEpisodesOptions {
  /** The queue's owner: only its rows move. */
  node: string;
  /** Only these episodes; all of the node's when omitted. */
  episodeIds?: readonly string[];
  /** Only these actors' episodes. */
  actorIds?: readonly string[];
  /** Pollers' wake-up (the node's scope). */
  wakeup: TTriggerRequestWakeup;
}

/**
 * Hands pending episodes a node's queue owns over to the cluster as trigger requests, in one
 * statement: the queue's ownership is cleared and the request written together, so the episode
 * is owned by exactly one of them at every moment. Used when the node stops (its whole queue,
 * however much of it is only in the table), when an override stops an actor from running here,
 * and for restarted or adopted work this node may not run. A restarted episode keeps
 * `recovered: true` in its request, so the node that runs it never sheds it.
 */
export async function deferQueuedEpisodes(
  options: DeferQueuedEpisodesOptions,
  db: Queryable,
): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    `WITH moved AS (
       UPDATE cyclium_episodes e
          SET queued_by = NULL, queued_at = NULL, updated_at = now()
        WHERE e.queued_by = $1 AND e.status = 'pending'
          AND ($2::uuid[] IS NULL OR e.id = ANY($2::uuid[]))
          AND ($3::text[] IS NULL OR e.actor_id = ANY($3::text[]))
       RETURNING e.id, e.actor_id, e.expectation_id, e.source_stack, e.source_env, e.phase,
                 e.inserted_at
     ), requested AS (
       INSERT INTO cyclium_trigger_requests
         (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts)
       SELECT m.id, m.actor_id, m.expectation_id, $1, m.source_stack, m.source_env, 'pending',
              CASE WHEN m.phase = 'recovered' THEN '{"recovered":true}'::jsonb ELSE '{}'::jsonb END
         FROM moved m
        ORDER BY m.inserted_at, m.id
       RETURNING id
     )
     SELECT count(*)::text AS count,
            CASE WHEN count(*) > 0 THEN pg_notify($4, $5) END AS notified
       FROM requested`,
    [
      options.node,
      options.episodeIds ?? null,
      options.actorIds ?? null,
      TRIGGER_REQUESTS_CHANNEL,
      JSON.stringify(options.wakeup),
    ],
  );
  return Number(rows[0]?.count ?? 0);
}
