/**
 * How many bus events one node works on at once (gates, jitter, the episode insert). NOTIFY
 * cannot be slowed down, so a burst arrives whole; without a bound every event became a pending
 * fire at once, each holding its insert, promise chain and parameters in the pool's queue: 100,000
 * events to one actor peaked at 1,135 MB RSS (`pnpm bench --burst`, ~6 KB per waiting fire). A
 * waiting event costs only its parsed payload and one closure here. 256 keeps the pool (10
 * connections) busy through the 0-200 ms dedupe jitter each fire sleeps.
 */
export const DEFAULT_EVENTS_IN_FLIGHT = 256;

/** A FIFO counting semaphore: `run` starts `work` once fewer than `limit` are running. */
export class EventAdmission {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit = DEFAULT_EVENTS_IN_FLIGHT) {
    this.#limit = Math.max(1, limit);
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so the count never dips and lets a newcomer
      // overtake it.
      if (next === undefined) this.#running -= 1;
      else next();
    }
  }
}
