// The front door of @cyclium/core (SPEC section 13): what a team's deployment module and main.ts
// are written with. Define actors with their strategies, workflows and triggers, gather them with
// defineDeployment, run them with runWorker, fire and follow work from any process with
// createClient. Everything else is internal; the other entry points are `/client`, `/worker`,
// `/testing` and the console's `/console` (api-report.md lists every name).
export {
  defineDeployment,
  loadDeployment,
  type Deployment,
  type DeploymentInput,
  type LoadDeploymentOptions,
} from "./deployment/index";
export { runWorker, type RunWorkerOptions } from "./worker/index";
export {
  defineActor,
  done,
  fail,
  next,
  wait,
  waitFor,
  type ActorDefinition,
  type AnyStrategy,
  type EpisodeInfo,
  type PollContext,
  type PollFunction,
  type PollOutcome,
  type StepResult,
  type StepUsage,
  type Strategy,
  type StrategyContext,
  type Trigger,
  type TriggerInput,
  type Wakeup,
} from "./actors/index";
export { defineWorkflow, type WorkflowDefinition } from "./workflows/index";
export {
  defineTrigger,
  type CronTriggerDefinition,
  type IntervalTriggerDefinition,
  type PollTriggerDefinition,
  type TriggerDefinition,
  type WindowTriggerDefinition,
} from "./triggers/index";
export {
  createClient,
  type ClientConnection,
  type CreateClientOptions,
  type CycliumClient,
} from "./client/index";
export { CycliumError, isCycliumError, type CycliumErrorCode } from "./errors/index";
export type { Queryable } from "./db/index";
export type { Logger } from "./telemetry/index";
