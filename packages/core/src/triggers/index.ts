// Public face of triggers (SPEC section 7): definitions, the per-node scheduler, and the
// list / inspect / pause / resume / fire functions in the REST shapes of SPEC section 12.
export {
  CATCH_UP_POLICIES,
  DEFAULT_CATCH_UP_LIMIT,
  defineCronSchedule,
  defineTrigger,
  TriggerResult,
  type CatchUpPolicy,
  type CronTriggerDefinition,
  type IntervalTriggerDefinition,
  type PollTriggerDefinition,
  type TCronScheduleInput,
  type TCronTriggerInput,
  type TIntervalTriggerInput,
  type TPollTriggerInput,
  type TriggerContext,
  type TriggerDefinition,
  type TriggerPoll,
  type TriggerPollArgs,
  type TriggerPollResult,
  type WindowTriggerDefinition,
} from "./trigger-definition";
export { CronSchedule } from "./cron-schedule";
export { IntervalSchedule, MIN_INTERVAL_MS } from "./interval-schedule";
export { isValidTimezone } from "../actors/validate-schedule";
export { TriggerRegistry } from "./trigger-registry";
export {
  DEFAULT_TRIGGER_BREAKER,
  readTriggerBreaker,
  type TriggerBreakerState,
  type TriggerBreakerStateName,
  type TTriggerBreaker,
} from "./trigger-breaker";
export {
  DEFAULT_POLL_TIMEOUT_MS,
  DEFAULT_TRIGGER_TICK_MS,
  TriggerScheduler,
  type TriggerSchedulerOptions,
} from "./trigger-scheduler";
export {
  fanOutFiring,
  type Execution,
  type FanOutFiringOptions,
  type FanOutResult,
  type FiringTrigger,
  type WorkflowStarter,
} from "./fan-out-firing";
export { fanOutTargets } from "./subscribers-of";
export { planCronTurn, planPollTurn, type TriggerTurn } from "../turns/index";
export { listTriggers, type ListTriggersResult } from "./list-triggers";
export { inspectTrigger, type InspectTriggerResult } from "./inspect-trigger";
export { pauseTrigger, resumeTrigger, type PauseTriggerResult } from "./pause-trigger";
export { fireTrigger, type FireTriggerOptions, type FireTriggerResult } from "./fire-trigger";
export {
  ZFireTriggerInput,
  ZInspectTriggerInput,
  ZListTriggersInput,
  ZPauseTriggerInput,
  ZTenantId,
  ZTriggerNameInput,
  type TFireTriggerInput,
  type TInspectTriggerInput,
  type TListTriggersInput,
  type TPauseTriggerInput,
  type TTriggerNameInput,
} from "./trigger-inputs";
export { DEFAULT_TENANT, envOfTenant, PUBLIC_TENANT, tenantIdOf } from "./tenant";
export type { CloacinaScheduleFields, TriggerItem, TriggerKindName } from "./trigger-row";
export type { ExecutionItem, FiringItem, FiringOutcome, FiringSource } from "./trigger-firing-row";
export {
  describeTriggerInterface,
  type TriggerInterfaceResult,
  type TriggerParameter,
} from "./describe-trigger-interface";
export {
  triggerExtension,
  type TriggerExtension,
  type TriggerExtensionOptions,
} from "./trigger-extension";
