import type { Queryable } from "../db/index";
import type { NodeScope } from "../scope/index";
import type { WorkflowSnapshot, WorkflowTransition } from "./advance-workflow";
import { loadWorkflowInstance } from "./load-workflow-instance";
import { updateWorkflowInstance } from "./update-workflow-instance";
import type { WorkflowDefinition } from "./workflow-definition";
import { parseStepStates, type WorkflowInstanceRow } from "./workflow-instance-row";
import type { WorkflowRegistry } from "./workflow-registry";

export type ComputeTransition = (
  definition: WorkflowDefinition,
  snapshot: WorkflowSnapshot,
  now: Date,
) => WorkflowTransition | null;

export interface AppliedTransition {
  row: WorkflowInstanceRow;
  definition: WorkflowDefinition;
  transition: WorkflowTransition;
}

export type TransitionSkip = "not_found" | "out_of_scope" | "unregistered" | "no_change";

/** Concurrent transitions of one instance retry their compare-and-set this many times. */
const MAX_CAS_ATTEMPTS = 20;

/**
 * Load, compute, compare-and-set; on a lost race, again from the newer state, so concurrent
 * events for one instance (its parallel steps finishing together, on different nodes) are all
 * applied, each exactly once. Instances of another stack or env are left to that world's
 * engines: starting their steps here would stamp this node's scope on the episodes.
 */
export async function transitionInstance(
  options: {
    db: Queryable;
    registry: WorkflowRegistry;
    scope: NodeScope;
    instanceId: string;
    now: () => Date;
  },
  compute: ComputeTransition,
): Promise<AppliedTransition | TransitionSkip> {
  for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
    const row = await loadWorkflowInstance(options.instanceId, options.db);
    if (!row) return "not_found";
    if (!inScope(row, options.scope)) return "out_of_scope";
    const definition = options.registry.get(row.workflow_name);
    if (!definition) return "unregistered";
    const snapshot = { status: row.status, steps: parseStepStates(row.step_states) };
    const transition = compute(definition, snapshot, options.now());
    if (!transition) return "no_change";
    const applied = await updateWorkflowInstance(
      {
        id: row.id,
        expectedStatus: row.status,
        expectedSteps: row.step_states,
        status: transition.status,
        steps: transition.steps,
        errorMessage: transition.errorMessage,
      },
      options.db,
    );
    if (applied) return { row, definition, transition };
  }
  throw new Error(
    `workflow instance ${options.instanceId} kept changing under ${MAX_CAS_ATTEMPTS} tries`,
  );
}

function inScope(row: WorkflowInstanceRow, scope: NodeScope): boolean {
  if (row.source_env !== scope.env) return false;
  return scope.stack === null || row.source_stack === null || row.source_stack === scope.stack;
}
