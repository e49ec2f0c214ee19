import type { Queryable } from "../../db/index";
import type { ActorRegistry } from "../actor-registry";
import { readCircuitBreakerState, type CircuitBreakerState } from "./circuit-breaker";

export interface CircuitBreakerListing extends CircuitBreakerState {
  actorId: string;
  expectationId: string;
  threshold: number;
  halfOpenAfterMs: number;
}

/** Every event expectation with a circuit breaker and its state in `env` (for the console). */
export async function listCircuitBreakers(
  options: { registry: Pick<ActorRegistry, "list">; env: string | null },
  db: Queryable,
): Promise<CircuitBreakerListing[]> {
  const listings: CircuitBreakerListing[] = [];
  for (const actor of options.registry.list()) {
    for (const expectation of actor.expectations) {
      const trigger = expectation.trigger;
      if (!("event" in trigger) || trigger.circuitBreaker === undefined) continue;
      const config = trigger.circuitBreaker;
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
