import { z } from "zod";
import type { Queryable } from "../db/index";
import type { Logger, Telemetry } from "../telemetry/index";

/**
 * A poll trigger's breaker defaults (issue 31). Without one, a poll whose workflow failed fired
 * the same context again every interval: 14 failed episodes in 27 s. Three failed firings in a row
 * open it; the first trial passes 10 s after the last failure, each further failed trial doubles
 * the wait up to 5 minutes. Once open, a trigger fires at most 2 trials in its first minute and
 * fewer after; one success closes it.
 */
export const DEFAULT_TRIGGER_BREAKER = Object.freeze({
  threshold: 3,
  halfOpenAfterMs: 10_000,
  maxHalfOpenAfterMs: 300_000,
});

export const ZTriggerBreaker = z
  .strictObject({
    /** Consecutive failed firings (the primary workflow failed or was cancelled) that open it. */
    threshold: z.number().int().positive().default(DEFAULT_TRIGGER_BREAKER.threshold),
    /** The wait after the failure that opened it before one trial fire may pass. */
    halfOpenAfterMs: z.number().int().positive().default(DEFAULT_TRIGGER_BREAKER.halfOpenAfterMs),
    /** The cap on that wait, which doubles with each failed trial. */
    maxHalfOpenAfterMs: z
      .number()
      .int()
      .positive()
      .default(DEFAULT_TRIGGER_BREAKER.maxHalfOpenAfterMs),
  })
  .refine((b) => b.maxHalfOpenAfterMs >= b.halfOpenAfterMs, {
    message: "maxHalfOpenAfterMs must be at least halfOpenAfterMs",
    path: ["maxHalfOpenAfterMs"],
  });
export type TTriggerBreaker = z.output<typeof ZTriggerBreaker>;

/** `circuitBreaker` on a poll trigger: the defaults when left out, none when `false`. */
export const ZTriggerBreakerOption = z.union([z.literal(false), ZTriggerBreaker]).optional();

export type TriggerBreakerStateName = "closed" | "open" | "half_open";

export interface TriggerBreakerState {
  state: TriggerBreakerStateName;
  /** Failed firings since the newest completed one. */
  consecutiveFailures: number;
  /** When an open breaker lets a trial pass; null when closed. */
  halfOpenAt: Date | null;
  /** False while open, and while half-open with the trial's firing still running. */
  allowsFire: boolean;
}

/** One firing as the breaker reads it, newest first. */
export interface BreakerFiring {
  status: "running" | "completed" | "failed";
  insertedAt: Date;
  finishedAt: Date | null;
}

/**
 * The breaker as a pure function of the trigger's newest firings (newest first) and the database
 * clock. Firings still running before the newest finished one are the half-open trial in flight.
 */
export function planTriggerBreaker(
  firings: readonly BreakerFiring[],
  now: Date,
  settings: TTriggerBreaker,
): TriggerBreakerState {
  let index = 0;
  let inFlight = false;
  while (firings[index]?.status === "running") {
    inFlight = true;
    index++;
  }
  let failures = 0;
  let lastFailureAt: Date | null = null;
  for (const firing of firings.slice(index)) {
    // A running firing among finished ones (allowConcurrent) has no outcome yet.
    if (firing.status === "running") continue;
    if (firing.status === "completed") break;
    failures++;
    lastFailureAt ??= firing.finishedAt ?? firing.insertedAt;
  }
  if (failures < settings.threshold || lastFailureAt === null) {
    return { state: "closed", consecutiveFailures: failures, halfOpenAt: null, allowsFire: true };
  }
  const waitMs = Math.min(
    settings.halfOpenAfterMs * 2 ** (failures - settings.threshold),
    settings.maxHalfOpenAfterMs,
  );
  const halfOpenAt = new Date(lastFailureAt.getTime() + waitMs);
  const base = { consecutiveFailures: failures, halfOpenAt };
  if (now.getTime() < halfOpenAt.getTime()) return { ...base, state: "open", allowsFire: false };
  return { ...base, state: "half_open", allowsFire: !inFlight };
}

/**
 * How many firings past the threshold to read: enough for the wait to reach any sensible cap
 * (2^20 times the first wait), and a bound on the read. Uses the (trigger_id, inserted_at DESC)
 * index.
 */
const EXTRA_FIRINGS = 20;
const SQL = `
SELECT status, inserted_at, finished_at FROM cyclium_trigger_firings
 WHERE trigger_id = $1
 ORDER BY inserted_at DESC
 LIMIT $2`;

/**
 * Derived from the firings rather than kept in a table, like the expectation breaker: every node
 * computes the same state from the same rows, whichever node's turn it is.
 */
export async function readTriggerBreaker(
  options: { triggerId: string; settings: TTriggerBreaker; now: Date },
  db: Queryable,
): Promise<TriggerBreakerState> {
  const { rows } = await db.query<{
    status: BreakerFiring["status"];
    inserted_at: Date;
    finished_at: Date | null;
  }>(SQL, [options.triggerId, options.settings.threshold + EXTRA_FIRINGS]);
  const firings = rows.map((row) => ({
    status: row.status,
    insertedAt: row.inserted_at,
    finishedAt: row.finished_at,
  }));
  return planTriggerBreaker(firings, options.now, options.settings);
}

const TRANSITION_EVENTS = {
  open: "cyclium.circuit_breaker.opened",
  half_open: "cyclium.circuit_breaker.half_open",
  closed: "cyclium.circuit_breaker.closed",
} as const;

/**
 * The state each trigger's breaker had when this node last read it, so a change is logged (warn)
 * and emitted once per node that sees it. Nodes take turns running a trigger, so each one reports
 * the transitions it observed.
 */
export class TriggerBreakerMonitor {
  readonly #last = new Map<string, TriggerBreakerStateName>();

  constructor(private readonly options: { telemetry: Telemetry; logger: Logger }) {}

  observe(trigger: string, current: TriggerBreakerState): void {
    const last = this.#last.get(trigger) ?? "closed";
    if (current.state === last) return;
    this.#last.set(trigger, current.state);
    const meta = { trigger };
    this.options.telemetry.emit(TRANSITION_EVENTS[current.state], { count: 1 }, meta);
    this.options.logger.warn(
      {
        ...meta,
        state: current.state,
        previous: last,
        consecutive_failures: current.consecutiveFailures,
        half_open_at: current.halfOpenAt?.toISOString() ?? null,
      },
      "trigger circuit breaker state changed",
    );
  }
}
