// Public face of actors: compiled definitions (`defineActor`), the strategy contract and
// registry, the actor registry recovery and the console consult, and the dynamic actor loader.
export {
  DEFAULT_BUDGET,
  DEFAULT_MAX_CONCURRENT_EPISODES,
  EPISODE_OVERFLOWS,
  MAX_FIRE_DELAY_MS,
  MAX_PRIORITY,
  MIN_PRIORITY,
  ZActorDefinition,
  ZBudget,
  ZEpisodeOverflow,
  ZExpectation,
  ZPriority,
  ZRetry,
  findExpectation,
  runsOnStack,
  type ActorDefinition,
  type ActorInput,
  type ActorSource,
  type Budget,
  type BudgetInput,
  type EpisodeOverflow,
  type ExpectationDefinition,
  type ExpectationDefinitionOf,
  type ExpectationInput,
  type Retry,
  type RetryInput,
  type StrategyRef,
} from "./actor-definition";
// What recovery does with an orphaned episode of an expectation (an expectation field that
// recovery reads: declared here, below recovery).
export { RECOVERY_POLICIES, ZRecoveryPolicy, type RecoveryPolicy } from "./recovery-policy";
export {
  defineActor,
  parseActorDefinition,
  safeParseActorDefinition,
  type SafeParseActorDefinitionResult,
} from "./define-actor";
export {
  ActorRegistry,
  type ActorRegistryChange,
  type ActorRegistryListener,
  type ActorRegistryOptions,
  type ResolveStrategyResult,
} from "./actor-registry";
export { StrategyRegistry } from "./strategy-registry";
export { DynamicActorLoader, type DynamicActorLoaderOptions } from "./dynamic-actor-loader";
// Dynamic actors' definitions: the schema shared with the loader, and the console's and REST's
// reads and writes.
export {
  AGENT_DEFINITIONS_CHANGED,
  ZAgentDefinitionChanges,
  ZAgentDefinitionInput,
  createAgentDefinition,
  getAgentDefinition,
  listAgentDefinitions,
  parseAgentDefinition,
  setAgentDefinitionEnabled,
  updateAgentDefinition,
  type AgentDefinition,
  type CreateAgentDefinitionResult,
  type TAgentDefinitionChanges,
  type TAgentDefinitionInput,
  type UpdateAgentDefinitionResult,
} from "./definitions/index";
export {
  loadAgentDefinitions,
  type AgentDefinitionRow,
  type LoadAgentDefinitionsOptions,
} from "./load-agent-definitions";
export {
  done,
  fail,
  isStrategy,
  next,
  wait,
  waitFor,
  type AnyStrategy,
  type EpisodeInfo,
  type StepResult,
  type StepUsage,
  type Strategy,
  type StrategyContext,
  type WaitRequest,
  type Wakeup,
} from "./strategy";
export {
  TRIGGER_KINDS,
  ZTrigger,
  triggerKindOf,
  type EventTrigger,
  type ManualTrigger,
  type PollContext,
  type PollFunction,
  type PollOutcome,
  type PollTrigger,
  type ScheduleTrigger,
  type Trigger,
  type TriggerInput,
  type TriggerKind,
} from "./trigger";
export { CRON_MODE, isValidTimezone } from "./validate-schedule";
export {
  BreakerGuard,
  CircuitBreakerMonitor,
  circuitBreakerOf,
  DEFAULT_CIRCUIT_BREAKER,
  EventGate,
  listCircuitBreakers,
  readCircuitBreakerState,
  ZCircuitBreaker,
  ZCircuitBreakerOption,
  ZEventFilter,
  type BreakerGuardOptions,
  type CircuitBreakerListing,
  type CircuitBreakerState,
  type CircuitBreakerStateName,
  type EventGatesConfig,
  type ReadCircuitBreakerOptions,
  type TCircuitBreaker,
  type TCircuitBreakerOption,
  type TEventFilter,
} from "./gates/index";
