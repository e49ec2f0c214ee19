// The public face of @cyclium/core: one namespace per concept of the SPEC. Deep imports such as
// "@cyclium/core/claims" reach the same modules.
export * as actors from "./actors/index";
export * as bus from "./bus/index";
export * as claims from "./claims/index";
export * as client from "./client/index";
export * as db from "./db/index";
export * as deployment from "./deployment/index";
export * as episodes from "./episodes/index";
export * as errors from "./errors/index";
export * as findings from "./findings/index";
export * as modes from "./modes/index";
export * as nodes from "./nodes/index";
export * as recovery from "./recovery/index";
export * as runtime from "./runtime/index";
export * as scope from "./scope/index";
export * as telemetry from "./telemetry/index";
export * as triggerRequests from "./trigger-requests/index";
export * as triggers from "./triggers/index";
export * as workflows from "./workflows/index";
export * as worker from "./worker/index";
// The front door (SPEC section 13), also at the top level: a team's main.ts needs nothing else.
export {
  defineDeployment,
  loadDeployment,
  type Deployment,
  type DeploymentInput,
} from "./deployment/index";
export { runWorker, type RunWorkerOptions } from "./worker/index";
// What a deployment module is written with (docs/getting-started.md): actors and their
// strategies, workflows, triggers.
export {
  defineActor,
  done,
  fail,
  next,
  wait,
  waitFor,
  type ActorDefinition,
  type Strategy,
  type StrategyContext,
  type Wakeup,
} from "./actors/index";
export { defineWorkflow, type WorkflowDefinition } from "./workflows/index";
export { defineTrigger, type TriggerDefinition } from "./triggers/index";
export {
  createClient,
  type ClientConnection,
  type CreateClientOptions,
  type CycliumClient,
} from "./client/index";
