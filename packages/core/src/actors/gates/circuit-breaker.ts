import type { Queryable } from "../../db/index";
import type { Logger, Telemetry } from "../../telemetry/index";
import type { TCircuitBreaker } from "./event-gates-schema";

export type CircuitBreakerStateName = "closed" | "open" | "half_open";

export interface CircuitBreakerState {
  state: CircuitBreakerStateName;
  /** Failed or cancelled among the newest `threshold` finished episodes. */
  consecutiveFailures: number;
  /** When the newest of those failures finished (the breaker opened then); null when closed. */
  openedAt: Date | null;
  /** When an open breaker lets a trial fire pass; null when closed. */
  halfOpenAt: Date | null;
  /** False while open, and while half-open with the trial episode still pending or running. */
  allowsFire: boolean;
}

export interface ReadCircuitBreakerOptions extends TCircuitBreaker {
  actorId: string;
  expectationId: string;
  env: string | null;
}

// Derived from the episodes themselves rather than kept in a table: every node computes the same
// state from the same rows, so the breaker is cluster-wide with nothing new to keep consistent.
// Uses the (actor_id, expectation_id, inserted_at DESC) index; at most `threshold` rows are read.
const SQL = `
WITH recent AS (
  SELECT status, finished_at FROM cyclium_episodes
   WHERE actor_id = $1 AND expectation_id = $2 AND source_env IS NOT DISTINCT FROM $3
     AND status IN ('completed', 'failed', 'cancelled') AND archived_at IS NULL
   ORDER BY inserted_at DESC
   LIMIT $4
), summary AS (
  SELECT count(*)::int AS finished,
         (count(*) FILTER (WHERE status <> 'completed'))::int AS failures,
         max(finished_at) AS last_finished_at
    FROM recent
)
SELECT s.finished, s.failures, s.last_finished_at,
       s.last_finished_at + make_interval(secs => $5::double precision / 1000) AS half_open_at,
       now() >= s.last_finished_at + make_interval(secs => $5::double precision / 1000) AS elapsed,
       EXISTS (
         SELECT 1 FROM cyclium_episodes e
          WHERE e.actor_id = $1 AND e.expectation_id = $2
            AND e.source_env IS NOT DISTINCT FROM $3
            AND e.status IN ('pending', 'running') AND e.archived_at IS NULL
            AND e.inserted_at > s.last_finished_at
       ) AS trial_in_flight
  FROM summary s`;

interface Row {
  finished: number;
  failures: number;
  last_finished_at: Date | null;
  half_open_at: Date | null;
  elapsed: boolean | null;
  trial_in_flight: boolean;
}

/**
 * The breaker of one expectation (SPEC 12): open once its newest `threshold` finished episodes all
 * failed or were cancelled, for `halfOpenAfterMs` after the last of them; then half-open, letting
 * one trial fire through: its success closes the breaker, its failure opens it again. Readable by
 * the console as is.
 */
export async function readCircuitBreakerState(
  options: ReadCircuitBreakerOptions,
  db: Queryable,
): Promise<CircuitBreakerState> {
  const result = await db.query<Row>(SQL, [
    options.actorId,
    options.expectationId,
    options.env,
    options.threshold,
    options.halfOpenAfterMs,
  ]);
  const row = result.rows[0];
  if (row === undefined || row.finished < options.threshold || row.failures < options.threshold) {
    const failures = row?.finished === row?.failures ? (row?.failures ?? 0) : 0;
    return closed(failures);
  }
  const base = {
    consecutiveFailures: row.failures,
    openedAt: row.last_finished_at,
    halfOpenAt: row.half_open_at,
  };
  if (row.elapsed !== true) return { ...base, state: "open", allowsFire: false };
  return { ...base, state: "half_open", allowsFire: !row.trial_in_flight };
}

function closed(consecutiveFailures: number): CircuitBreakerState {
  return {
    state: "closed",
    consecutiveFailures,
    openedAt: null,
    halfOpenAt: null,
    allowsFire: true,
  };
}

const TRANSITION_EVENTS = {
  open: "cyclium.circuit_breaker.opened",
  half_open: "cyclium.circuit_breaker.half_open",
  closed: "cyclium.circuit_breaker.closed",
} as const;

/**
 * Reads an expectation's breaker before each fire and emits a telemetry event when the state this
 * node last saw changes. Transitions are observed per node (each node emits its own), since the
 * state itself lives in the episode rows.
 */
export class CircuitBreakerMonitor {
  #last: CircuitBreakerStateName = "closed";

  constructor(
    private readonly options: ReadCircuitBreakerOptions & {
      db: Queryable;
      telemetry: Telemetry;
      logger: Logger;
    },
  ) {}

  async check(): Promise<CircuitBreakerState> {
    const { db, telemetry, logger, actorId, expectationId } = this.options;
    const current = await readCircuitBreakerState(this.options, db);
    if (current.state !== this.#last) {
      this.#last = current.state;
      const meta = { actor_id: actorId, expectation_id: expectationId };
      telemetry.emit(TRANSITION_EVENTS[current.state], { count: 1 }, meta);
      // warn (issue 31): an opening breaker means an expectation keeps failing, and its closing
      // is the sign of recovery an operator waits for.
      logger.warn(
        {
          ...meta,
          state: current.state,
          consecutive_failures: current.consecutiveFailures,
          half_open_at: current.halfOpenAt?.toISOString() ?? null,
        },
        "circuit breaker state changed",
      );
    }
    return current;
  }
}
