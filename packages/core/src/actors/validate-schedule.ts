import { Cron } from "croner";
import type { z } from "zod";

/**
 * Five fields only (minute precision): the schedule dedupe key's window is the fire instant to
 * the minute (SPEC section 3), so two fires inside one minute would share a key and the second
 * would be silently deduplicated away.
 */
export const CRON_MODE = "5-part";

export function validateCronExpression(value: string, ctx: z.RefinementCtx): void {
  try {
    new Cron(value, { mode: CRON_MODE, paused: true });
  } catch (error) {
    ctx.addIssue({
      code: "custom",
      message: `bad cron expression "${value}" (five fields: minute hour day month weekday): ${
        error instanceof Error ? error.message : String(error)
      }`,
    });
  }
}

/** IANA names only: `Intl` rejects unknown zones with a RangeError. */
export function validateTimezone(value: string, ctx: z.RefinementCtx): void {
  if (!isValidTimezone(value)) {
    ctx.addIssue({
      code: "custom",
      message: `bad timezone "${value}": expected an IANA time zone such as "UTC" or "Europe/Paris"`,
    });
  }
}

export function isValidTimezone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
