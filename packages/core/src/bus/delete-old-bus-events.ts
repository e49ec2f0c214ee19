import type { Queryable } from "../db/index";

export interface DeleteOldBusEventsOptions {
  db: Queryable;
  /** Rows older than this (by the database clock) are deleted. */
  olderThanMs: number;
  /** Bounds one statement's work so a large backlog is removed in short transactions. */
  limit?: number;
}

/**
 * Removes stored large-payload events that every receiver has had ample time to load. Every node
 * may run it: concurrent runs just find fewer rows, and SKIP LOCKED keeps them from queueing.
 */
export async function deleteOldBusEvents({
  db,
  olderThanMs,
  limit = 10_000,
}: DeleteOldBusEventsOptions): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM cyclium_bus_events
     WHERE id IN (
       SELECT id FROM cyclium_bus_events
       WHERE inserted_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY inserted_at
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     )`,
    [olderThanMs, limit],
  );
  return rowCount ?? 0;
}
