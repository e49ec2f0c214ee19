import { ZStepStates, type StepStates, type WorkflowInstanceStatus } from "./step-state";

/** A `cyclium_workflow_instances` row as read by the engine and the console. */
export interface WorkflowInstanceRow {
  id: string;
  workflow_name: string;
  status: WorkflowInstanceStatus;
  step_states: unknown;
  context: Record<string, unknown>;
  trigger_name: string | null;
  firing_id: string | null;
  source_stack: string | null;
  source_env: string | null;
  error_message: string | null;
  inserted_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export const WORKFLOW_INSTANCE_COLUMNS = `id, workflow_name, status, step_states, context,
  trigger_name, firing_id, source_stack, source_env, error_message, inserted_at, updated_at,
  finished_at`;

/**
 * `step_states` is JSON other releases and operators' SQL may have written; parse it at the
 * boundary so the state machine only ever sees well-formed steps.
 */
export function parseStepStates(value: unknown): StepStates {
  return ZStepStates.parse(value);
}
