/**
 * How many bus events one node works on at once (gates, jitter, the episode insert). NOTIFY
 * cannot be slowed down, so a burst arrives whole; without a bound every event became a pending
 * fire at once, each holding its insert, promise chain and parameters in the pool's queue: 100,000
 * events to one actor peaked at 1,135 MB RSS (`pnpm bench --burst`, ~6 KB per waiting fire). 256
 * keeps the pool (10 connections) busy through the 0-200 ms dedupe jitter each fire sleeps.
 */
export const DEFAULT_EVENTS_IN_FLIGHT = 256;

/**
 * A FIFO of work with at most `limit` running. `submit` is synchronous and keeps only the work's
 * closure: a waiting event costs its payload and one function, not a suspended async frame and a
 * promise per event (a first version that awaited a slot per event still held ~2.8 KB each).
 */
export class EventAdmission {
  readonly #limit: number;
  readonly #onError: (error: unknown) => void;
  #running = 0;
  #waiting: (() => Promise<void>)[] = [];
  #head = 0;

  constructor(limit = DEFAULT_EVENTS_IN_FLIGHT, onError: (error: unknown) => void = () => {}) {
    this.#limit = Math.max(1, limit);
    this.#onError = onError;
  }

  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  get running(): number {
    return this.#running;
  }

  submit(work: () => Promise<void>): void {
    this.#waiting.push(work);
    this.#pump();
  }

  #pump(): void {
    while (this.#running < this.#limit && this.#head < this.#waiting.length) {
      const work = this.#waiting[this.#head];
      this.#waiting[this.#head] = undefined as never;
      this.#head += 1;
      // Compact now and then instead of shift(), which is O(n) on a 100,000-entry array.
      if (this.#head > 1_024 && this.#head * 2 > this.#waiting.length) {
        this.#waiting = this.#waiting.slice(this.#head);
        this.#head = 0;
      }
      if (work === undefined) continue;
      this.#running += 1;
      void work()
        .catch(this.#onError)
        .finally(() => {
          this.#running -= 1;
          this.#pump();
        });
    }
  }
}
