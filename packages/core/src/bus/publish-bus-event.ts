import type { Queryable } from "../db/index";
import { BUS_CHANNEL, MAX_INLINE_EVENT_BYTES, serializeEvent } from "./bus-wire-format";
import { createBusEvent } from "./create-bus-event";
import { notify } from "./notify";
import { storeBusEvent } from "./store-bus-event";
import type { Bus, BusEvent } from "./types";

export interface PublishBusEventOptions<P> {
  /** A pool, or the caller's transaction: then the event is delivered only on commit. */
  db: Queryable;
  topic: string;
  payload: P;
  /** Node identity stamped as the event's `source`. */
  source?: string | undefined;
  /** Events whose JSON is larger go through cyclium_bus_events. Lowered only by tests. */
  maxInlineBytes?: number | undefined;
  /**
   * Sends an inline event's NOTIFY instead of a statement of its own (PgBus: the publishes of one
   * event-loop turn share one statement). Not used when `db` is the caller's transaction.
   */
  sendInline?: ((eventJson: string) => Promise<unknown>) | undefined;
}

/**
 * Publishes one event on the cluster bus (PostgreSQL NOTIFY on `cyclium_bus`, or a stored row
 * for a large one). What PgBus.publish sends, usable without a listening connection: a console
 * request publishes an operator's `episode.cancelled` with it, and every PgBus receives it.
 */
export async function publishBusEvent<P>(options: PublishBusEventOptions<P>): Promise<BusEvent<P>> {
  const event = createBusEvent(options.topic, options.payload, options.source);
  const eventJson = serializeEvent(event);
  // Each event carries a fresh uuid, so PostgreSQL never folds two of them into one: it only
  // collapses identical (channel, payload) pairs sent by the same transaction.
  if (Buffer.byteLength(eventJson, "utf8") <= (options.maxInlineBytes ?? MAX_INLINE_EVENT_BYTES)) {
    if (options.sendInline) await options.sendInline(eventJson);
    else await notify({ db: options.db, channel: BUS_CHANNEL, payload: eventJson });
  } else {
    await storeBusEvent({ db: options.db, topic: options.topic, eventJson });
  }
  return event;
}

export interface BusPublisherOptions {
  /** Where events are published unless a publish passes its own `tx`. */
  db: Queryable;
  nodeIdentity?: string | undefined;
}

/** The publishing half of the cluster bus, for a process that publishes but does not listen. */
export function createBusPublisher(options: BusPublisherOptions): Pick<Bus, "publish"> {
  return {
    publish: (topic, payload, opts) =>
      publishBusEvent({
        db: opts?.tx ?? options.db,
        topic,
        payload,
        source: options.nodeIdentity,
      }),
  };
}
