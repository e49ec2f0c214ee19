import type { Queryable } from "../db/index";
import type { StepStates, WorkflowInstanceStatus } from "./step-state";

export interface InsertWorkflowInstanceOptions {
  workflowName: string;
  status: WorkflowInstanceStatus;
  steps: StepStates;
  context: Record<string, unknown>;
  triggerName: string | null;
  firingId: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
}

const SQL = `
INSERT INTO cyclium_workflow_instances
  (workflow_name, status, step_states, context, trigger_name, firing_id, source_stack, source_env)
VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8)
RETURNING id`;

export async function insertWorkflowInstance(
  options: InsertWorkflowInstanceOptions,
  db: Queryable,
): Promise<string> {
  const result = await db.query<{ id: string }>(SQL, [
    options.workflowName,
    options.status,
    JSON.stringify(options.steps),
    JSON.stringify(options.context),
    options.triggerName,
    options.firingId,
    options.sourceStack,
    options.sourceEnv,
  ]);
  const row = result.rows[0];
  if (!row) throw new Error("INSERT ... RETURNING gave no row");
  return row.id;
}
