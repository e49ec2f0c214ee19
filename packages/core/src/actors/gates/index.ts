// Event trigger gates (SPEC 12): filter, cooldown, trailing debounce, circuit breaker.
export {
  DEFAULT_CIRCUIT_BREAKER,
  ZCircuitBreaker,
  ZCircuitBreakerOption,
  ZEventFilter,
  ZEventGates,
  type EventGatesConfig,
  type TCircuitBreaker,
  type TCircuitBreakerOption,
  type TEventFilter,
} from "./event-gates-schema";
export { matchesFilter, subjectOf, valueAt } from "./event-filter";
export { Cooldown } from "./cooldown";
export { TrailingDebounce } from "./debounce";
export {
  CircuitBreakerMonitor,
  readCircuitBreakerState,
  type CircuitBreakerState,
  type CircuitBreakerStateName,
  type ReadCircuitBreakerOptions,
} from "./circuit-breaker";
export { listCircuitBreakers, type CircuitBreakerListing } from "./list-circuit-breakers";
export { EventGate, type EventGateOptions } from "./event-gate";
export { BreakerGuard, circuitBreakerOf, type BreakerGuardOptions } from "./breaker-guard";
