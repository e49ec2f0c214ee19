/**
 * What the cron rule reads of a definition: a deployment trigger's (triggers/), or a schedule
 * expectation's (expectation-turns.ts); both run on these claimed turns.
 */
export interface WindowRule {
  schedule: { nextAfter(after: Date): Date | null; latestAtOrBefore(at: Date): Date | null };
  catchUp: "skip" | "latest" | "run_all";
  misfireGraceMs: number;
  catchUpLimit: number;
}

/** A due turn of a trigger: what to claim (`due` -> `next`) and which window, if any, to fire. */
export interface TriggerTurn {
  due: Date | null;
  next: Date | null;
  /** The newest cron window this turn fires (recorded as `last_fire_at`), or null for none. */
  fire: Date | null;
  /** Every cron window this turn fires, oldest first: `fire` alone, or a `run_all` backlog. */
  fires: Date[];
  /** How many windows were passed over unfired (missed while no node ran, or paused). */
  missed: number;
}

/**
 * The cron rule (and an interval's, whose windows are a grid), as a pure function of the stored `next_fire_at` and the database clock. The
 * newest window at or before now fires if it is on time (within `misfireGraceMs`); when it is
 * not, the cluster was down or paused through it, and `catchUp` decides: `skip` fires nothing,
 * `latest` fires that newest window once, `run_all` fires every window from the stored one on,
 * oldest first, at most `catchUpLimit` of them. Either way the next fire is the first window
 * after now, so an outage turns into at most `catchUpLimit` fires, never an endless burst.
 */
export function planCronTurn(
  definition: WindowRule,
  due: Date | null,
  now: Date,
): TriggerTurn | null {
  const next = definition.schedule.nextAfter(now);
  if (due === null) return { due, next, fire: null, fires: [], missed: 0 };
  if (due.getTime() > now.getTime()) return null;
  let window = definition.schedule.latestAtOrBefore(now);
  // A stored time that is no window of the current rule (the rule changed under it) still fires.
  if (window === null || window.getTime() < due.getTime()) window = due;
  const total = countWindows(definition, due, window);
  if (definition.catchUp === "run_all") {
    const fires = windowsFrom(definition, due, window, definition.catchUpLimit);
    return { due, next, fire: fires.at(-1) ?? null, fires, missed: total - fires.length };
  }
  const onTime = now.getTime() - window.getTime() <= definition.misfireGraceMs;
  const fire = onTime || definition.catchUp === "latest" ? window : null;
  return { due, next, fire, fires: fire ? [fire] : [], missed: total - (fire ? 1 : 0) };
}

/** Windows from `from` (itself included, a window or not) up to `to`, at most `limit`. */
function windowsFrom(definition: WindowRule, from: Date, to: Date, limit: number): Date[] {
  const windows = [from];
  let cursor: Date | null = from;
  while (windows.length < limit) {
    cursor = definition.schedule.nextAfter(cursor);
    if (cursor === null || cursor.getTime() > to.getTime()) break;
    windows.push(cursor);
  }
  return windows;
}

/** A poll turn is due once its interval has passed; claiming it moves the next one on. */
export function planPollTurn(
  definition: { pollIntervalMs: number },
  due: Date | null,
  now: Date,
): TriggerTurn | null {
  if (due !== null && due.getTime() > now.getTime()) return null;
  return {
    due,
    next: new Date(now.getTime() + definition.pollIntervalMs),
    fire: null,
    fires: [],
    missed: 0,
  };
}

/** Windows from `from` to `to`, both included; capped, it only feeds a log line. */
function countWindows(definition: WindowRule, from: Date, to: Date): number {
  let count = 1;
  let cursor: Date | null = from;
  while (count < 1_000) {
    cursor = definition.schedule.nextAfter(cursor);
    if (cursor === null || cursor.getTime() > to.getTime()) break;
    count++;
  }
  return count;
}
