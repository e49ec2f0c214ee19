import type { Queryable } from "../db/index";
import { WORKFLOW_INSTANCE_COLUMNS, type WorkflowInstanceRow } from "./workflow-instance-row";

const SQL = `SELECT ${WORKFLOW_INSTANCE_COLUMNS} FROM cyclium_workflow_instances WHERE id = $1`;

/** The instance, or null for an unknown (or malformed) id. */
export async function loadWorkflowInstance(
  instanceId: string,
  db: Queryable,
): Promise<WorkflowInstanceRow | null> {
  if (!UUID.test(instanceId)) return null;
  const result = await db.query<WorkflowInstanceRow>(SQL, [instanceId]);
  return result.rows[0] ?? null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
