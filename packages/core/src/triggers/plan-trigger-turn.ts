import type { CronTriggerDefinition, PollTriggerDefinition } from "./trigger-definition";

/** A due turn of a trigger: what to claim (`due` -> `next`) and which window, if any, to fire. */
export interface TriggerTurn {
  due: Date | null;
  next: Date | null;
  /** The cron window to fire, or null when the turn only moves the schedule on. */
  fire: Date | null;
  /** How many windows were passed over unfired (missed while no node ran, or paused). */
  missed: number;
}

/**
 * The cron rule, as a pure function of the stored `next_fire_at` and the database clock. The
 * newest window at or before now fires if it is on time (within `misfireGraceMs`); when it is
 * not, the cluster was down or paused through it, and `catchUp` decides: `skip` fires nothing,
 * `latest` fires that newest window once. Older missed windows never fire. Either way the next
 * fire is the first window after now, so a long outage never turns into a burst.
 */
export function planCronTurn(
  definition: CronTriggerDefinition,
  due: Date | null,
  now: Date,
): TriggerTurn | null {
  const next = definition.schedule.nextAfter(now);
  if (due === null) return { due, next, fire: null, missed: 0 };
  if (due.getTime() > now.getTime()) return null;
  let window = definition.schedule.latestAtOrBefore(now);
  // A stored time that is no window of the current rule (the rule changed under it) still fires.
  if (window === null || window.getTime() < due.getTime()) window = due;
  const onTime = now.getTime() - window.getTime() <= definition.misfireGraceMs;
  const fire = onTime || definition.catchUp === "latest" ? window : null;
  const missed = countWindows(definition, due, window) - (fire ? 1 : 0);
  return { due, next, fire, missed };
}

/** A poll turn is due once its interval has passed; claiming it moves the next one on. */
export function planPollTurn(
  definition: PollTriggerDefinition,
  due: Date | null,
  now: Date,
): TriggerTurn | null {
  if (due !== null && due.getTime() > now.getTime()) return null;
  return { due, next: new Date(now.getTime() + definition.pollIntervalMs), fire: null, missed: 0 };
}

/** Windows from `from` to `to`, both included; capped, it only feeds a log line. */
function countWindows(definition: CronTriggerDefinition, from: Date, to: Date): number {
  let count = 1;
  let cursor: Date | null = from;
  while (count < 1_000) {
    cursor = definition.schedule.nextAfter(cursor);
    if (cursor === null || cursor.getTime() > to.getTime()) break;
    count++;
  }
  return count;
}
