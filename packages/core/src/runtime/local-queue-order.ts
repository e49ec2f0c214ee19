import { MAX_PRIORITY } from "../actors/index";
import { DEFAULT_PRIORITY_AGEING_MS } from "../deferred/index";

/** What the order of a node's local queue is computed from. */
export interface Prioritized {
  /** The fire's priority (its expectation's default, else 0). */
  priority: number;
  /** When it joined the queue (ms, any monotonic clock the caller also passes as `now`). */
  queuedAt: number;
}

/**
 * The index of the entry a free slot takes next from a node's local queue (SPEC section 16): the
 * same order the deferred queue's claim uses, higher priority first and FIFO within one priority,
 * with the same rule against starvation: an entry's priority rises one level for every `ageingMs`
 * it has waited here, up to MAX_PRIORITY. `entries` are in arrival order; -1 when empty.
 *
 * A scan: the in-memory queue holds at most `localQueueLimit` (default 200) per actor, and when
 * every entry has the same priority the first one wins at once (it is also the oldest).
 */
export function nextInPriorityOrder(
  entries: readonly Prioritized[],
  now: number,
  ageingMs: number = DEFAULT_PRIORITY_AGEING_MS,
): number {
  let best = -1;
  let bestPriority = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i];
    if (entry === undefined) continue;
    const waited = Math.max(0, now - entry.queuedAt);
    const priority = Math.min(
      MAX_PRIORITY,
      Math.max(entry.priority, entry.priority + Math.floor(waited / ageingMs)),
    );
    // Strictly higher: among equals the earlier arrival (the oldest) keeps its place.
    if (priority > bestPriority) {
      best = i;
      bestPriority = priority;
      if (priority >= MAX_PRIORITY) break;
    }
  }
  return best;
}
