import type { Queryable } from "../db/index";
import { TRIGGER_REQUESTS_CHANNEL, type TTriggerRequestWakeup } from "./trigger-request";

export interface WakeTriggerRequestPollersOptions {
  /** One NOTIFY per distinct scope (PostgreSQL folds identical ones of a transaction anyway). */
  wakeups: readonly TTriggerRequestWakeup[];
}

/**
 * Wakes the pollers of the scopes that just received trigger requests, in one statement. In the
 * writer's transaction, the NOTIFY is delivered when the requests are committed and visible.
 */
export async function wakeTriggerRequestPollers(
  options: WakeTriggerRequestPollersOptions,
  db: Queryable,
): Promise<void> {
  const payloads = [...new Set(options.wakeups.map((wakeup) => JSON.stringify(wakeup)))];
  if (payloads.length === 0) return;
  await db.query("SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload", [
    TRIGGER_REQUESTS_CHANNEL,
    payloads,
  ]);
}
