import type { Queryable } from "../../db/index";
import type { ActorRegistry } from "../actor-registry";
import { circuitBreakerOf } from "./breaker-guard";
import { readCircuitBreakerState, type CircuitBreakerState } from "./circuit-breaker";

export interface CircuitBreakerListing extends CircuitBreakerState {
  actorId: string;
  expectationId: string;
  threshold: number;
  halfOpenAfterMs: number;
}

/**
 * Every expectation guarded by a circuit breaker (every trigger kind but manual, unless its
 * breaker is switched off) and its state in `env` (for the console).
 */
export async function listCircuitBreakers(
  options: { registry: Pick<ActorRegistry, "list">; env: string | null },
  db: Queryable,
): Promise<CircuitBreakerListing[]> {
  const listings: CircuitBreakerListing[] = [];
  for (const actor of options.registry.list()) {
    for (const expectation of actor.expectations) {
      const config = circuitBreakerOf(expectation.trigger);
      if (config === null) continue;
      const state = await readCircuitBreakerState(
        { ...config, actorId: actor.identifier, expectationId: expectation.id, env: options.env },
        db,
      );
      listings.push({
        ...state,
        ...config,
        actorId: actor.identifier,
        expectationId: expectation.id,
      });
    }
  }
  return listings;
}
