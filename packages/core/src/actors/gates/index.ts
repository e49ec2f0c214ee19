// Event trigger gates (SPEC 12): filter, cooldown, trailing debounce, circuit breaker.
export {
  ZCircuitBreaker,
  ZEventFilter,
  ZEventGates,
  type EventGatesConfig,
  type TCircuitBreaker,
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
