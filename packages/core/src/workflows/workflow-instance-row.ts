import { ZStepStates, type StepStates, type WorkflowInstanceStatus } from "./step-state";
import type { WorkflowInstanceModel } from "@cyclium/db/models";
import type { Narrow, RowOf } from "../db/row-of";

/** A `cyclium_workflow_instances` row as read by the engine and the console. */
export type WorkflowInstanceRow = Narrow<
  RowOf<WorkflowInstanceModel>,
  { status: WorkflowInstanceStatus; context: Record<string, unknown> }
>;

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
