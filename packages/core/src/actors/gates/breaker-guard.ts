import { announce, LIFECYCLE_TOPICS, type Bus } from "../../bus/index";
import { acquireClaim } from "../../claims/index";
import type { Queryable } from "../../db/index";
import type { Logger, Telemetry, TelemetryMetadata } from "../../telemetry/index";
import { CircuitBreakerMonitor } from "./circuit-breaker";
import { DEFAULT_CIRCUIT_BREAKER, type TCircuitBreaker } from "./event-gates-schema";

// Matches the live dedupe index's predicate, so it is one index probe.
const EPISODE_EXISTS_SQL = `SELECT 1 FROM cyclium_episodes
  WHERE dedupe_key = $1 AND dedupe_key IS NOT NULL AND archived_at IS NULL`;

/** The breaker of a trigger as configured: the defaults unless given, none when `false`. */
export function circuitBreakerOf(
  trigger: { circuitBreaker?: TCircuitBreaker | false | undefined } | { manual: true },
): TCircuitBreaker | null {
  // An operator's fire is a deliberate act, often the probe that shows a fix worked (SPEC 12).
  if ("manual" in trigger) return null;
  const config = trigger.circuitBreaker;
  if (config === false) return null;
  return config ?? DEFAULT_CIRCUIT_BREAKER;
}

export interface BreakerGuardOptions {
  breaker: TCircuitBreaker;
  actorId: string;
  expectationId: string;
  env: string | null;
  /** Owner of the rejection's claim (see `admits`). */
  nodeIdentity: string;
  db: Queryable;
  telemetry: Telemetry;
  logger: Logger;
  bus?: Pick<Bus, "publish"> | undefined;
}

/**
 * The breaker in front of one expectation's trigger, whatever its kind (event, schedule, poll).
 * Every node runs the same triggers and sees the same occurrence (an event, a cron window), so
 * every node's breaker refuses it; `circuit_breaker.rejected` must still be announced once. The
 * node that acquires the claim `circuit_breaker.rejected:{dedupe key}` announces it: one
 * statement, only while the breaker is open, and the claim is left to lapse (its lease outlives
 * the seconds by which nodes see one occurrence apart), then the claims sweep removes it.
 */
export class BreakerGuard {
  readonly #o: BreakerGuardOptions;
  readonly #monitor: CircuitBreakerMonitor;

  constructor(options: BreakerGuardOptions) {
    this.#o = options;
    this.#monitor = new CircuitBreakerMonitor({
      ...options.breaker,
      actorId: options.actorId,
      expectationId: options.expectationId,
      env: options.env,
      db: options.db,
      telemetry: options.telemetry,
      logger: options.logger,
    });
  }

  /**
   * True when the fire may go on. `occurrence` is the would-be episode's dedupe key (null for a
   * fire without one: then each node announces its own refusal).
   */
  async admits(occurrence: string | null, payload: TelemetryMetadata): Promise<boolean> {
    const state = await this.#monitor.check();
    if (state.allowsFire) return true;
    const { db, bus, telemetry, logger, actorId, expectationId, nodeIdentity } = this.#o;
    // Half-open refuses while a trial is in flight, and that trial may be this very occurrence,
    // fired a moment ago by a node that read the breaker first: not a rejection, only a duplicate.
    if (occurrence !== null && state.state === "half_open") {
      const fired = await db.query(EPISODE_EXISTS_SQL, [occurrence]);
      if ((fired.rowCount ?? 0) > 0) return false;
    }
    if (occurrence !== null) {
      const won = await acquireClaim(
        {
          dedupeKey: `circuit_breaker.rejected:${occurrence}`.slice(0, 512),
          owner: nodeIdentity,
          leaseSeconds: Math.max(60, Math.ceil(this.#o.breaker.halfOpenAfterMs / 1000)),
        },
        db,
      );
      if (!won) return false;
    }
    await announce({ bus, telemetry, logger }, LIFECYCLE_TOPICS.circuitBreakerRejected, {
      ...payload,
      actor_id: actorId,
      expectation_id: expectationId,
      state: state.state,
      node: nodeIdentity,
    });
    return false;
  }
}
