import type { Queryable } from "../db/index";
import type { StepStates, WorkflowInstanceStatus } from "./step-state";

export interface UpdateWorkflowInstanceOptions {
  id: string;
  /** The status and step states the transition was computed from. */
  expectedStatus: WorkflowInstanceStatus;
  expectedSteps: unknown;
  status: WorkflowInstanceStatus;
  steps: StepStates;
  /** null keeps the stored message. */
  errorMessage: string | null;
}

/**
 * Compare-and-set of an instance's state: it applies only if status and step states are still
 * what the transition was computed from (jsonb equality ignores key order). Every node's engine
 * receives every episode event; this is what lets exactly one of them advance the workflow and
 * turns the same event handled twice into a no-op.
 *
 * When the instance ends, the firing it was started by is closed in the same statement if this
 * workflow is that trigger's primary (SPEC section 7: the primary drives the firing record). A
 * firing stays `running` until then, which is what keeps an unchanged poll condition from firing
 * again while its previous run is still going.
 */
const SQL = `
WITH updated AS (
  UPDATE cyclium_workflow_instances
     SET status = $4::text,
         step_states = $5::jsonb,
         error_message = COALESCE($6::text, error_message),
         updated_at = now(),
         finished_at = CASE WHEN $4::text IN ('done', 'failed', 'cancelled') THEN now() END
   WHERE id = $1
     AND status = $2
     AND step_states = $3::jsonb
  RETURNING id, status, firing_id, workflow_name, error_message
),
closed AS (
  UPDATE cyclium_trigger_firings f
     SET status = CASE WHEN u.status = 'done' THEN 'completed' ELSE 'failed' END,
         error_message = CASE WHEN u.status = 'done' THEN f.error_message
                              ELSE COALESCE(u.error_message, 'workflow ' || u.status) END,
         finished_at = now()
    FROM updated u
    JOIN cyclium_triggers t ON t.workflow = u.workflow_name
   WHERE u.status IN ('done', 'failed', 'cancelled')
     AND f.id = u.firing_id
     AND f.trigger_id = t.id
     AND f.status = 'running'
  RETURNING f.id
)
SELECT (SELECT count(*) FROM updated)::int AS updated`;

/** True when this caller's transition was applied. */
export async function updateWorkflowInstance(
  options: UpdateWorkflowInstanceOptions,
  db: Queryable,
): Promise<boolean> {
  const result = await db.query<{ updated: number }>(SQL, [
    options.id,
    options.expectedStatus,
    JSON.stringify(options.expectedSteps),
    options.status,
    JSON.stringify(options.steps),
    options.errorMessage,
  ]);
  return (result.rows[0]?.updated ?? 0) > 0;
}
