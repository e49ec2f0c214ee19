import type { Queryable } from "../db/index";

export interface NotifyOptions {
  /** A pool, or the caller's transaction: then the notification is sent only on commit. */
  db: Queryable;
  channel: string;
  /** Must stay under PostgreSQL's 8000-byte NOTIFY limit. */
  payload?: string;
}

/**
 * Sends a NOTIFY on any channel (trigger request wake-ups, mode changes, ...). pg_notify() rather
 * than the NOTIFY statement because NOTIFY cannot take bind parameters.
 */
export async function notify({ db, channel, payload = "" }: NotifyOptions): Promise<void> {
  await db.query("SELECT pg_notify($1, $2)", [channel, payload]);
}

/**
 * Sends several notifications on one channel in one statement (one transaction): listeners are
 * woken once for all of them and receive them in order. What PgBus uses for the publishes of one
 * event-loop turn.
 */
export async function notifyMany({
  db,
  channel,
  payloads,
}: {
  db: Queryable;
  channel: string;
  payloads: string[];
}): Promise<void> {
  if (payloads.length === 0) return;
  if (payloads.length === 1) return notify({ db, channel, payload: payloads[0] });
  await db.query("SELECT count(pg_notify($1, p)) FROM unnest($2::text[]) AS p", [
    channel,
    payloads,
  ]);
}
