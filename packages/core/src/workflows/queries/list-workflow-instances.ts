import type { Queryable } from "../../db/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import {
  pendingStep,
  STEP_STATUSES,
  type StepState,
  type StepStatus,
  type WorkflowInstanceStatus,
} from "../step-state";
import { WORKFLOW_INSTANCE_COLUMNS, type WorkflowInstanceRow } from "../workflow-instance-row";

/** One step of an instance as the console shows it: its name beside its state. */
export interface WorkflowStepItem extends StepState {
  name: string;
}

export interface WorkflowInstanceItem {
  id: string;
  workflowName: string;
  status: WorkflowInstanceStatus;
  triggerName: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  errorMessage: string | null;
  context: unknown;
  steps: WorkflowStepItem[];
  insertedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export interface WorkflowInstanceFilters {
  env: string | null;
  workflowName?: string | undefined;
  status?: WorkflowInstanceStatus | undefined;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const isStepStatus = (value: unknown): value is StepStatus =>
  (STEP_STATUSES as readonly unknown[]).includes(value);

/**
 * step_states as the console reads it: unlike the engine's parseStepStates, a malformed entry
 * is shown (as far as it reads) rather than refused, so an operator can see what went wrong.
 */
export function readStepStates(value: unknown): WorkflowStepItem[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([name, raw]) => {
    const state = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    return {
      ...pendingStep(),
      name,
      status: isStepStatus(state.status) ? state.status : "pending",
      attempt: typeof state.attempt === "number" ? state.attempt : 0,
      episodeId: text(state.episodeId),
      startedAt: text(state.startedAt),
      finishedAt: text(state.finishedAt),
      retryAt: text(state.retryAt),
      error: text(state.error),
    };
  });
}

export function toWorkflowInstanceItem(row: WorkflowInstanceRow): WorkflowInstanceItem {
  return {
    id: row.id,
    workflowName: row.workflow_name,
    status: row.status,
    triggerName: row.trigger_name,
    sourceStack: row.source_stack,
    sourceEnv: row.source_env,
    errorMessage: row.error_message,
    context: row.context,
    steps: readStepStates(row.step_states),
    insertedAt: row.inserted_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/** Workflow instances of one env, newest first (cyclium_workflow_instances_env_inserted_at_id_idx). */
export async function listWorkflowInstances(
  options: KeysetPageOptions & { db: Queryable; filters: WorkflowInstanceFilters },
): Promise<KeysetPage<WorkflowInstanceItem>> {
  const params = new SqlParams();
  const walk = keysetWalk(options, params, { at: "inserted_at", id: "id", idType: "uuid" });
  const where = [envScopeSql("source_env", options.filters.env, params)];
  if (options.filters.workflowName !== undefined) {
    where.push(`workflow_name = ${params.add(options.filters.workflowName)}`);
  }
  if (options.filters.status !== undefined)
    where.push(`status = ${params.add(options.filters.status)}`);
  if (walk.after !== null) where.push(walk.after);
  const { rows } = await options.db.query<WorkflowInstanceRow & { cursor_at: string }>(
    `SELECT ${WORKFLOW_INSTANCE_COLUMNS}, ${walk.cursorAt} AS cursor_at
       FROM cyclium_workflow_instances WHERE ${where.join(" AND ")}
      ORDER BY source_env ${walk.leadOrder}, inserted_at ${walk.order}, id ${walk.order}
      LIMIT ${walk.limit}`,
    params.values,
  );
  return walk.page(
    rows.map((row) => ({ item: toWorkflowInstanceItem(row), cursorAt: row.cursor_at })),
  );
}

export async function getWorkflowInstance(options: {
  db: Queryable;
  id: string;
}): Promise<WorkflowInstanceItem | null> {
  const { rows } = await options.db.query<WorkflowInstanceRow>(
    `SELECT ${WORKFLOW_INSTANCE_COLUMNS} FROM cyclium_workflow_instances WHERE id = $1`,
    [options.id],
  );
  const row = rows[0];
  return row ? toWorkflowInstanceItem(row) : null;
}
