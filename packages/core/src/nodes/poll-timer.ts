import type { PollFunction, PollOutcome } from "../actors/index";
import type { Queryable } from "../db/index";
import type { Logger } from "../telemetry/index";

export interface PollTimerOptions {
  poll: PollFunction;
  intervalMs: number;
  db: Queryable;
  logger: Logger;
  /** Gets the context to fire with (its hash is the dedupe key). */
  onFire: (context: Record<string, unknown>) => Promise<void>;
  /** Skips the poll itself (the actor is disabled here). */
  isActive: () => boolean;
}

/**
 * Runs a poll trigger's function every `intervalMs` (never two at once). A plain `true` carries
 * no context of its own, so it fires with the interval window it belongs to: every node computes
 * the same window and one episode per interval results, where a constant context would fire once
 * and then be deduplicated until that episode is archived.
 */
export class PollTimer {
  readonly #o: PollTimerOptions;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(options: PollTimerOptions) {
    this.#o = options;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.runOnce(), this.#o.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#abort.abort();
  }

  async runOnce(): Promise<void> {
    if (this.#running || this.#abort.signal.aborted || !this.#o.isActive()) return;
    this.#running = true;
    try {
      const { db, logger } = this.#o;
      const outcome: PollOutcome = await this.#o.poll({ signal: this.#abort.signal, db, logger });
      const context = contextOf(outcome, this.#o.intervalMs);
      if (context !== null) await this.#o.onFire(context);
    } catch (err) {
      this.#o.logger.warn({ err }, "poll trigger failed; will poll again on its interval");
    } finally {
      this.#running = false;
    }
  }
}

function contextOf(outcome: PollOutcome, intervalMs: number): Record<string, unknown> | null {
  if (outcome === true) {
    const window = Math.floor(Date.now() / intervalMs) * intervalMs;
    return { window: new Date(window).toISOString() };
  }
  if (typeof outcome === "object" && outcome !== null) return outcome.context;
  return null;
}
