/**
 * Trailing debounce per subject: each event restarts its subject's timer and replaces the
 * pending value, so when `debounceMs` pass without another event the last one is released. Every
 * node releases the same last event (same id), so its dedupe key makes one episode cluster-wide.
 */
export class TrailingDebounce<T> {
  readonly #pending = new Map<string, { value: T; timer: NodeJS.Timeout }>();

  constructor(
    private readonly debounceMs: number,
    private readonly release: (subject: string, value: T) => void,
  ) {}

  push(subject: string, value: T): void {
    const previous = this.#pending.get(subject);
    if (previous !== undefined) clearTimeout(previous.timer);
    const timer = setTimeout(() => {
      this.#pending.delete(subject);
      this.release(subject, value);
    }, this.debounceMs);
    // A pending debounce must not keep a stopping process alive.
    timer.unref();
    this.#pending.set(subject, { value, timer });
  }

  /** Drops everything pending (the trigger stopped). */
  clear(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }
}
