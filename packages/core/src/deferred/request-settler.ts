import type { Queryable } from "../db/index";
import { completeTriggerRequests } from "./complete-trigger-requests";
import { releaseLimitedTriggerRequests, releaseTriggerRequests } from "./release-trigger-requests";
import type { TTriggerRequestWakeup } from "./trigger-request";
import { wakeTriggerRequestPollers } from "./wake-trigger-request-pollers";

export interface RequestSettlerOptions {
  db: Queryable;
  /** The dispatching node: only its own claims are completed or released. */
  node: string;
  /**
   * Settlements are written together after this long. A busy worker finishes an episode every
   * few milliseconds; one UPDATE per 5 ms window instead of one per episode saves a commit per
   * episode, and 5 ms is nothing next to the time a request waited to be claimed.
   */
  windowMs?: number;
  /**
   * The scope whose pollers a release wakes: a request back to `pending` (a stopping node's) is
   * taken by another node at once, not at its fallback poll.
   */
  wakeup?: TTriggerRequestWakeup;
}

interface Batch {
  complete: string[];
  release: string[];
  limited: { id: string; wait: unknown }[];
  done: Promise<void>;
}

/** Marks dispatched requests `completed` (or back to `pending`) in batched statements. */
export class RequestSettler {
  readonly #o: RequestSettlerOptions;
  #batch: Batch | undefined;
  #resolve: (() => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: RequestSettlerOptions) {
    this.#o = options;
  }

  /** Resolves once the request is marked completed (rejects when that write failed). */
  complete(id: string): Promise<void> {
    const batch = this.#current();
    batch.complete.push(id);
    return batch.done;
  }

  /** Resolves once the request is back to pending. */
  release(id: string): Promise<void> {
    const batch = this.#current();
    batch.release.push(id);
    return batch.done;
  }

  /**
   * Resolves once the request is back to pending with the limit's refusal kept, waking no
   * poller (releaseLimitedTriggerRequests).
   */
  releaseLimited(id: string, wait: unknown): Promise<void> {
    const batch = this.#current();
    batch.limited.push({ id, wait });
    return batch.done;
  }

  /** Writes what is collected now. */
  async flush(): Promise<void> {
    const batch = this.#batch;
    const resolve = this.#resolve;
    const reject = this.#reject;
    if (batch === undefined || resolve === undefined || reject === undefined) return;
    clearTimeout(this.#timer);
    this.#batch = undefined;
    const { db, node } = this.#o;
    try {
      await completeTriggerRequests({ ids: batch.complete, node }, db);
      await releaseTriggerRequests({ ids: batch.release, node }, db);
      await releaseLimitedTriggerRequests({ requests: batch.limited, node }, db);
      if (batch.release.length > 0) {
        await wakeTriggerRequestPollers({ wakeups: [this.#o.wakeup ?? {}] }, db);
      }
      resolve();
    } catch (error) {
      reject(error);
    }
  }

  #current(): Batch {
    if (this.#batch !== undefined) return this.#batch;
    const done = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Callers await it; a failure is theirs to log, never an unhandled rejection here.
    done.catch(() => undefined);
    this.#batch = { complete: [], release: [], limited: [], done };
    this.#timer = setTimeout(() => void this.flush(), this.#o.windowMs ?? 5);
    return this.#batch;
  }
}
