import { CycliumError } from "../errors/index";

/** Below a second the scheduler's own tick (1 s by default) could not keep the windows apart. */
export const MIN_INTERVAL_MS = 1_000;

/**
 * "Every N milliseconds" as windows on a fixed grid: multiples of N since the Unix epoch (UTC).
 * Every node computes the same windows without sharing a start time, so a window is a value the
 * turn claim and the firing dedupe can agree on, exactly like a cron instant; a restart or a
 * changed deploy does not shift the grid. No time zone or DST applies.
 */
export class IntervalSchedule {
  readonly intervalMs: number;
  /** How the interval reads in a firing's `schedule_expression` (`@every 30s`). */
  readonly expression: string;
  readonly timezone = "UTC";

  private constructor(intervalMs: number) {
    this.intervalMs = intervalMs;
    this.expression =
      intervalMs % 1_000 === 0 ? `@every ${intervalMs / 1_000}s` : `@every ${intervalMs}ms`;
  }

  static of(intervalMs: number): IntervalSchedule {
    if (!Number.isSafeInteger(intervalMs) || intervalMs < MIN_INTERVAL_MS) {
      throw new CycliumError(
        "invalid_config",
        `Invalid interval ${intervalMs} ms: expected a whole number of at least ${MIN_INTERVAL_MS} ms.`,
      );
    }
    return new IntervalSchedule(intervalMs);
  }

  /** The first window strictly after `after`. */
  nextAfter(after: Date): Date {
    return new Date((Math.floor(after.getTime() / this.intervalMs) + 1) * this.intervalMs);
  }

  /** The newest window at or before `at`. */
  latestAtOrBefore(at: Date): Date {
    return new Date(Math.floor(at.getTime() / this.intervalMs) * this.intervalMs);
  }
}
