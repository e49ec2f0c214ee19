import { Cron } from "croner";
import { CRON_MODE } from "../actors/index";
import type { Logger } from "../telemetry/index";

export interface ScheduleTimerOptions {
  schedule: string;
  /** IANA zone the expression is read in; croner handles the DST gaps and repeats. */
  timezone: string;
  /** Gets the scheduled instant (not the moment the timer fired): it is the dedupe window. */
  onFire: (scheduledAt: Date) => Promise<void>;
  logger: Logger;
  /** The clock; tests move it. */
  now?: () => number;
}

// setTimeout overflows above 2^31-1 ms (~24.8 days); long waits are re-armed in hops of at most
// an hour, which also corrects for a wall clock that was stepped meanwhile.
const MAX_HOP_MS = 60 * 60_000;

/**
 * Fires a cron expression's instants. Every node runs the same timer; since each fire carries
 * the scheduled instant, all nodes compute one dedupe key per window and one episode results.
 */
export class ScheduleTimer {
  readonly #cron: Cron;
  readonly #o: ScheduleTimerOptions;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  #next: Date | null = null;
  #stopped = true;

  constructor(options: ScheduleTimerOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#cron = new Cron(options.schedule, {
      timezone: options.timezone,
      mode: CRON_MODE,
      paused: true,
    });
  }

  /** The instant the timer waits for; null when stopped or the expression never fires again. */
  get nextFireAt(): Date | null {
    return this.#next;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#next = this.#cron.nextRun(new Date(this.#now()));
    this.#arm();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#next = null;
  }

  #arm(): void {
    clearTimeout(this.#timer);
    if (this.#stopped || this.#next === null) return;
    const delay = Math.min(MAX_HOP_MS, Math.max(0, this.#next.getTime() - this.#now()));
    this.#timer = setTimeout(() => this.#tick(), delay);
    this.#timer.unref();
  }

  #tick(): void {
    const due = this.#next;
    if (this.#stopped || due === null) return;
    if (this.#now() < due.getTime()) {
      this.#arm();
      return;
    }
    this.#next = this.#cron.nextRun(due);
    this.#arm();
    this.#o.onFire(due).catch((err: unknown) => {
      this.#o.logger.error({ err, scheduled_at: due.toISOString() }, "scheduled fire failed");
    });
  }
}
