/**
 * One timer for the earliest delayed request of a poller's scope (SPEC section 16), so a run at a
 * time or a retry's backoff starts when it is due without polling hard. A NOTIFY of a new request,
 * a reconnect or a claim asks for a look-ahead after the next poll; the timer is only moved
 * earlier, never later, and asks for another look-ahead when it fires.
 */
export class DueTimer {
  readonly #onDue: () => void;
  #timer: NodeJS.Timeout | undefined;
  #dueAt = Number.POSITIVE_INFINITY;
  #lookAhead = true;
  #stopped = false;

  constructor(onDue: () => void) {
    this.#onDue = onDue;
  }

  /** The next poll should look up the earliest due time (something may have been added). */
  lookAhead(): void {
    this.#lookAhead = true;
  }

  /** Whether a poll that claimed `claimed` requests should look up the next due time. */
  wanted(claimed: number): boolean {
    return this.#lookAhead || claimed > 0;
  }

  /**
   * Looks up when the next request is due (`nextDueInMs`, by the database clock) and arms the
   * timer for it when that is earlier than the one armed. A failed lookup is retried next poll.
   */
  async arm(nextDueInMs: () => Promise<number | undefined>): Promise<void> {
    this.#lookAhead = false;
    let inMs: number | undefined;
    try {
      inMs = await nextDueInMs();
    } catch (err) {
      this.#lookAhead = true;
      throw err;
    }
    if (inMs === undefined || this.#stopped) return;
    const dueAt = Date.now() + inMs;
    if (this.#timer !== undefined && this.#dueAt <= dueAt) return;
    clearTimeout(this.#timer);
    this.#dueAt = dueAt;
    // A few ms past due: the database's now() must have passed run_at when the claim runs.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#dueAt = Number.POSITIVE_INFINITY;
      this.#lookAhead = true;
      this.#onDue();
    }, inMs + 5);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }
}
