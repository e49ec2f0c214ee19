/**
 * How many bus events one node works on at once (gates, jitter, the episode insert). NOTIFY
 * cannot be slowed down, so a burst arrives whole; unbounded, every event became a pending fire
 * at once. With 64, a burst of 100,000 events peaked at 243 MB RSS instead of 1,135 MB
 * (`pnpm bench --burst`; the runs with 256 and why fewer is not slower: docs/benchmarks.md,
 * "Burst").
 */
export const DEFAULT_EVENTS_IN_FLIGHT = 64;

/** Work shared by many waiting items: one function per expectation, not one closure per event. */
export type AdmittedWork<T> = (item: T) => Promise<void>;

/**
 * A FIFO of work with at most `limit` running. `submit` is synchronous and keeps two references
 * per waiting item: the (shared) work function and the item. Callers keep the item small (the
 * event trigger queues the event's JSON text, ~200 bytes, instead of the parsed event and a
 * closure, ~1 KB): a 30,000-event burst held ~110 MB of live heap with a closure per event.
 */
export class EventAdmission<T = unknown> {
  readonly #limit: number;
  readonly #onError: (error: unknown) => void;
  #running = 0;
  #works: (AdmittedWork<T> | undefined)[] = [];
  #items: (T | undefined)[] = [];
  #head = 0;

  constructor(limit = DEFAULT_EVENTS_IN_FLIGHT, onError: (error: unknown) => void = () => {}) {
    this.#limit = Math.max(1, limit);
    this.#onError = onError;
  }

  get waiting(): number {
    return this.#works.length - this.#head;
  }

  get running(): number {
    return this.#running;
  }

  submit(work: AdmittedWork<T>, item: T): void {
    this.#works.push(work);
    this.#items.push(item);
    this.#pump();
  }

  #pump(): void {
    while (this.#running < this.#limit && this.#head < this.#works.length) {
      const work = this.#works[this.#head];
      const item = this.#items[this.#head] as T;
      this.#works[this.#head] = undefined;
      this.#items[this.#head] = undefined;
      this.#head += 1;
      // Compact now and then instead of shift(), which is O(n) on a 100,000-entry array.
      if (this.#head > 1_024 && this.#head * 2 > this.#works.length) {
        this.#works = this.#works.slice(this.#head);
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      if (work === undefined) continue;
      this.#running += 1;
      void work(item)
        .catch(this.#onError)
        .finally(() => {
          this.#running -= 1;
          this.#pump();
        });
    }
  }
}
