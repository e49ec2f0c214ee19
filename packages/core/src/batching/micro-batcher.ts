export interface MicroBatcherOptions<I, O> {
  /** Writes a batch; resolves with one output per input, in order. */
  run: (items: I[]) => Promise<O[]>;
  /** At most this many items per batch. */
  maxBatch?: number;
  /**
   * Batches in flight at once (default 1). With 2, what arrives while one batch is in flight goes
   * out at once as a second statement instead of waiting a round trip for the first: for writes
   * whose batches touch disjoint rows (each episode is in one batch), where waiting is pure
   * latency. Batches in flight together may commit in either order.
   */
  maxInFlight?: number;
}

interface Pending<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups calls into batches the way graphile-worker batches job completions: what arrives in the
 * same event-loop turn goes out together (flushed on setImmediate, after the microtasks that
 * queued it), and what arrives while a batch is in flight waits for it and goes out as the next
 * one. So a lone call waits for nothing but its own statement, and under load every statement
 * carries everything that piled up during the previous round trip.
 */
export class MicroBatcher<I, O> {
  readonly #run: (items: I[]) => Promise<O[]>;
  readonly #maxBatch: number;
  #queue: Pending<I, O>[] = [];
  #scheduled = false;
  #inFlight = 0;
  readonly #maxInFlight: number;

  constructor(options: MicroBatcherOptions<I, O>) {
    this.#run = options.run;
    this.#maxBatch = options.maxBatch ?? 500;
    this.#maxInFlight = options.maxInFlight ?? 1;
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#maxInFlight) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#queue.splice(0, this.#maxBatch);
    if (batch.length === 0) return;
    this.#inFlight += 1;
    try {
      const outputs = await this.#run(batch.map((pending) => pending.item));
      batch.forEach((pending, index) => {
        const output = outputs[index];
        if (output === undefined) pending.reject(new Error("batch returned too few results"));
        else pending.resolve(output);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.#inFlight -= 1;
      if (this.#queue.length > 0) this.#schedule();
    }
  }
}
