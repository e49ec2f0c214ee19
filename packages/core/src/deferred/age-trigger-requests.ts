import { MAX_PRIORITY } from "../actors/index";
import type { Queryable } from "../db/index";

/** Default ageing: a due request rises one level for every 30 s it waits. */
export const DEFAULT_PRIORITY_AGEING_MS = 30_000;

export interface AgeTriggerRequestsOptions {
  /** A due request's claim priority rises one level per this many ms of waiting. */
  ageingMs: number;
}

/**
 * The rule against starvation: a pending request's claim priority is its fire's priority plus one
 * level for every `ageingMs` it has been due, up to MAX_PRIORITY. So work fired at priority 0
 * behind an endless stream at 10 is claimed at the latest 10 x ageingMs after it became due (5
 * minutes by default), then FIFO among the 10s; priority still puts urgent work ahead of work
 * that became due recently. The value is a function of the clock, so every node may run this at
 * once and they agree. Only rows due within the last 2 x (MAX_PRIORITY + 1) periods can still rise, so
 * the statement reads that window of the pending index, not the whole backlog.
 */
export async function ageTriggerRequests(
  options: AgeTriggerRequestsOptions,
  db: Queryable,
): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE cyclium_trigger_requests r
        SET claim_priority = a.target
       FROM (SELECT id,
                    least($2::int, priority
                      + floor(extract(epoch FROM now() - run_at) * 1000 / $1)::int) AS target
               FROM cyclium_trigger_requests
              WHERE status = 'pending'
                AND run_at <= now() - make_interval(secs => $1 / 1000.0)
                AND run_at > now() - make_interval(secs => $1 * 2 * ($2::int + 1) / 1000.0)
                AND claim_priority < $2::int) a
      WHERE r.id = a.id AND r.status = 'pending' AND r.claim_priority < a.target`,
    [options.ageingMs, MAX_PRIORITY],
  );
  return rowCount ?? 0;
}
