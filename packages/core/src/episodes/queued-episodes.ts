import type { Queryable } from "../db/index";
import { episodeColumns, toEpisode, type Episode, type EpisodeRow } from "./episode-row";

/**
 * Pending episodes owned by a node's queue (`cyclium_episodes.queued_by`, see
 * docs/queues-and-recovery.md). The rows are the queue's truth; a node holds at most its
 * `localQueueLimit` of them in memory and takes the rest from here as slots free.
 */

export interface TakeQueuedEpisodesOptions {
  node: string;
  actorId: string;
  /** Already held in this process (queued or starting): not taken again. */
  exclude: readonly string[];
  limit: number;
}

/**
 * Takes up to `limit` of this node's pending rows of an actor, oldest first, and refreshes
 * their `queued_at`: a row a restarted process of the same identity takes over from its dead
 * predecessor is then younger than the process's `started_at`, so no other node adopts it while
 * it waits here. SKIP LOCKED: a row being adopted or started elsewhere is left to that statement.
 */
export async function takeQueuedEpisodes(
  options: TakeQueuedEpisodesOptions,
  db: Queryable,
): Promise<Episode[]> {
  if (options.limit <= 0) return [];
  // Ordered in SQL: inserted_at has microseconds, a JS Date only milliseconds, and a burst puts
  // several rows in one millisecond (sorting in JS swapped neighbours in the FIFO test).
  const { rows } = await db.query<EpisodeRow>(
    `WITH taken AS (
       UPDATE cyclium_episodes e
          SET queued_at = now()
        WHERE e.id IN (SELECT q.id FROM cyclium_episodes q
                        WHERE q.queued_by = $1 AND q.actor_id = $2 AND q.status = 'pending'
                          AND q.archived_at IS NULL AND NOT (q.id = ANY($3::uuid[]))
                        ORDER BY q.inserted_at, q.id
                        LIMIT $4
                        FOR UPDATE SKIP LOCKED)
          AND e.queued_by = $1 AND e.status = 'pending'
       RETURNING ${episodeColumns("e")}
     )
     SELECT * FROM taken ORDER BY inserted_at, id`,
    [options.node, options.actorId, options.exclude, options.limit],
  );
  return rows.map(toEpisode);
}

/** Pending rows owned by `node`, per actor: what its queue holds in memory and in the table. */
export async function countQueuedEpisodes(
  options: { node: string },
  db: Queryable,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ actor_id: string; count: string }>(
    `SELECT actor_id, count(*)::text AS count FROM cyclium_episodes
      WHERE queued_by = $1 AND status = 'pending' AND archived_at IS NULL
      GROUP BY actor_id`,
    [options.node],
  );
  return new Map(rows.map((row) => [row.actor_id, Number(row.count)]));
}
