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
