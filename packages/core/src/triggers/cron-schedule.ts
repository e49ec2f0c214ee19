import { Cron } from "croner";
import { isValidTimezone } from "../actors/validate-schedule";
import { CycliumError } from "../errors/index";

/**
 * Five fields, or six with seconds first. Unlike a schedule expectation (whose dedupe key is the
 * window to the minute), a trigger's firings are told apart by the exact scheduled instant, so
 * second precision is safe here.
 */
const CRON_MODE = "5-or-6-parts";

/** A validated cron expression in an IANA time zone; croner does the DST arithmetic. */
export class CronSchedule {
  readonly expression: string;
  readonly timezone: string;
  readonly #cron: Cron;

  private constructor(expression: string, timezone: string, cron: Cron) {
    this.expression = expression;
    this.timezone = timezone;
    this.#cron = cron;
  }

  /**
   * Throws `invalid_config` naming the problem, so a bad trigger fails at definition time rather
   * than silently never firing. The zone is checked with `Intl`, because croner only notices an
   * unknown zone when it first computes a run.
   */
  static parse(expression: string, timezone = "UTC"): CronSchedule {
    if (!isValidTimezone(timezone)) {
      throw new CycliumError(
        "invalid_config",
        `Unknown time zone "${timezone}": expected an IANA name such as "UTC" or "Europe/Paris".`,
      );
    }
    let cron: Cron;
    try {
      cron = new Cron(expression, { mode: CRON_MODE, timezone, paused: true });
    } catch (error) {
      throw new CycliumError(
        "invalid_config",
        `Invalid cron expression "${expression}": ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (cron.nextRun(new Date()) === null) {
      throw new CycliumError("invalid_config", `Cron expression "${expression}" never fires.`);
    }
    return new CronSchedule(expression, timezone, cron);
  }

  /** The first fire instant strictly after `after`, or null if there is none. */
  nextAfter(after: Date): Date | null {
    return this.#cron.nextRun(after);
  }

  /** The newest fire instant at or before `at`, or null if there is none. */
  latestAtOrBefore(at: Date): Date | null {
    // previousRuns looks strictly before its reference; nudge it so `at` itself counts.
    const [latest] = this.#cron.previousRuns(1, new Date(at.getTime() + 1));
    return latest ?? null;
  }
}
