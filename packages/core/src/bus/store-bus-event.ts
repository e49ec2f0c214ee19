import { BUS_CHANNEL } from "./bus-wire-format";
import type { Queryable } from "../db/index";

export interface StoreBusEventOptions {
  /** A pool, or the caller's transaction: then both the row and the NOTIFY appear on commit. */
  db: Queryable;
  topic: string;
  /** The serialised event envelope (id, topic, payload, publishedAt, source). */
  eventJson: string;
}

/**
 * Publishes an event too large for a NOTIFY payload: stores it in cyclium_bus_events and
 * notifies `{ref, topic}` in the same statement, so no receiver can be told about a row that was
 * never written. The topic rides along so nodes without a subscriber skip the load.
 */
export async function storeBusEvent({
  db,
  topic,
  eventJson,
}: StoreBusEventOptions): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `WITH stored AS (
       INSERT INTO cyclium_bus_events (topic, payload)
       VALUES ($2, $3::jsonb)
       RETURNING id, topic
     )
     SELECT stored.id::text AS id,
            pg_notify($1, json_build_object('ref', stored.id::text, 'topic', stored.topic)::text)
     FROM stored`,
    [BUS_CHANNEL, topic, eventJson],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("INSERT INTO cyclium_bus_events returned no row");
  return id;
}
