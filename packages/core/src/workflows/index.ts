// Public face of workflows: DAG definitions, the registry trigger fan-out resolves subscribers
// from, and the engine that runs instances on episode events.
export {
  defineWorkflow,
  WORKFLOW_FAILURE_POLICIES,
  ZWorkflowDefinitionInput,
  type StepInput,
  type TWorkflowDefinitionInput,
  type WorkflowDefinition,
  type WorkflowFailurePolicy,
  type WorkflowStepDefinition,
} from "./workflow-definition";
export { WorkflowRegistry } from "./workflow-registry";
export {
  WorkflowEngine,
  type CancelInstanceResult,
  type ResumeInstanceResult,
  type RetryStepResult,
  type StartedWorkflow,
  type StartWorkflowOptions,
  type WorkflowEngineOptions,
} from "./workflow-engine";
export {
  stepIdempotencyKey,
  type EpisodeCanceller,
  type StartStepRequest,
  type StartStepResult,
  type StepStarter,
  type StepTiming,
} from "./step-starter";
export {
  EPISODE_CANCELLED_TOPIC,
  EPISODE_COMPLETED_TOPIC,
  EPISODE_FAILED_TOPIC,
  TERMINAL_EPISODE_STATUSES,
  ZEpisodeEvent,
  topicForEpisodeStatus,
  type TEpisodeEvent,
  type TerminalEpisodeStatus,
} from "../episodes/episode-events";
export {
  STEP_STATUSES,
  WORKFLOW_INSTANCE_STATUSES,
  ZStepState,
  type StepState,
  type StepStates,
  type StepStatus,
  type WorkflowInstanceStatus,
} from "./step-state";
export type { WorkflowSnapshot, WorkflowTransition } from "./advance-workflow";
export { loadWorkflowInstance } from "./load-workflow-instance";
export { parseStepStates, type WorkflowInstanceRow } from "./workflow-instance-row";
export {
  resumeWorkflowInstance,
  retryWorkflowStep,
  ZResumeWorkflowInstanceInput,
  ZRetryWorkflowStepInput,
  type TResumeWorkflowInstanceInput,
  type TRetryWorkflowStepInput,
} from "./operator-actions";
