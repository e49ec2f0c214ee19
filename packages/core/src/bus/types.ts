import type { Queryable } from "../db/index";

/**
 * One event as every node sees it. `id` and `publishedAt` are fixed by the publisher, so a
 * payload-plus-id hash (the event dedupe key) is identical on every node of the cluster.
 */
export interface BusEvent<P = unknown> {
  id: string;
  topic: string;
  payload: P;
  /** ISO-8601 UTC instant taken from the publisher's clock. */
  publishedAt: string;
  /** Node identity of the publisher, when it gave one. */
  source?: string;
}

export type BusHandler = (event: BusEvent) => void | Promise<void>;

export type Unsubscribe = () => void;

export interface PublishOptions {
  /**
   * Publish inside the caller's transaction: PostgreSQL delivers the NOTIFY only when that
   * transaction commits, and not at all when it rolls back.
   */
  tx?: Queryable;
}

/** Subscribing to this topic receives every event. */
export const ALL_TOPICS = "*";

export interface Bus {
  publish<P>(topic: string, payload: P, opts?: PublishOptions): Promise<BusEvent<P>>;
  /**
   * The NOTIFY that publishing this event would send, for a caller that sends it inside its own
   * statement (delivered on commit). Undefined when this bus does not publish through NOTIFY or
   * the event is too large to travel inline: then use publish().
   */
  inlineNotification?<P>(
    topic: string,
    payload: P,
  ): { channel: string; payload: string } | undefined;
  subscribe(topic: string, handler: BusHandler): Unsubscribe;
  close(): Promise<void>;
}
