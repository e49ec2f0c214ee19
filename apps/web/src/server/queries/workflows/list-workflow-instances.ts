import { envScopeSql, SqlParams } from "@cyclium/core/scope";
import type { TQueryable } from "../queryable";
import {
  cursorAtSql,
  decodeCursor,
  pageFromRows,
  type TPageDirection,
  type TPageInfo,
} from "../keyset-cursor";

export interface TWorkflowStepState {
  name: string;
  status: string;
  attempt: number;
  episodeId: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  retryAt: string | null;
  error: string | null;
}

export interface TWorkflowInstanceItem {
  id: string;
  workflowName: string;
  status: string;
  triggerName: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  errorMessage: string | null;
  context: unknown;
  steps: TWorkflowStepState[];
  insertedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface TWorkflowFilters {
  env: string | null;
  workflowName?: string | undefined;
  status?: string | undefined;
}

interface InstanceRow {
  id: string;
  workflow_name: string;
  status: string;
  step_states: unknown;
  context: unknown;
  trigger_name: string | null;
  source_stack: string | null;
  source_env: string | null;
  error_message: string | null;
  inserted_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  cursor_at: string;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** step_states is JSON written by the workflow engine; read it defensively, never trust it. */
export function readStepStates(value: unknown): TWorkflowStepState[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([name, raw]) => {
    const state = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
    return {
      name,
      status: text(state.status) ?? "pending",
      attempt: typeof state.attempt === "number" ? state.attempt : 0,
      episodeId: text(state.episodeId),
      startedAt: text(state.startedAt),
      finishedAt: text(state.finishedAt),
      retryAt: text(state.retryAt),
      error: text(state.error),
    };
  });
}

export function toWorkflowInstanceItem(row: Omit<InstanceRow, "cursor_at">): TWorkflowInstanceItem {
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
    insertedAt: row.inserted_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

const COLUMNS = `id, workflow_name, status, step_states, context, trigger_name, source_stack,
  source_env, error_message, inserted_at, updated_at, finished_at`;

/** Workflow instances of one env, newest first (cyclium_workflow_instances_env_inserted_at_id_idx). */
export async function listWorkflowInstances(options: {
  db: TQueryable;
  filters: TWorkflowFilters;
  cursor?: string | undefined;
  direction?: TPageDirection | undefined;
  limit: number;
}): Promise<{ items: TWorkflowInstanceItem[]; page: TPageInfo }> {
  const direction = options.direction ?? "older";
  const params = new SqlParams();
  const where = [envScopeSql("source_env", options.filters.env, params)];
  if (options.filters.workflowName !== undefined) {
    where.push(`workflow_name = ${params.add(options.filters.workflowName)}`);
  }
  if (options.filters.status !== undefined)
    where.push(`status = ${params.add(options.filters.status)}`);
  const cursor = options.cursor === undefined ? null : decodeCursor(options.cursor);
  if (cursor !== null) {
    const at = `(${params.add(cursor.at)}::timestamp AT TIME ZONE 'UTC')`;
    where.push(
      `(inserted_at, id) ${direction === "older" ? "<" : ">"} (${at}, ${params.add(cursor.id)}::uuid)`,
    );
  }
  const order = direction === "older" ? "DESC" : "ASC";
  const envOrder = direction === "older" ? "ASC" : "DESC";
  const { rows } = await options.db.query<InstanceRow>(
    `SELECT ${COLUMNS}, ${cursorAtSql("inserted_at")} AS cursor_at
       FROM cyclium_workflow_instances WHERE ${where.join(" AND ")}
      ORDER BY source_env ${envOrder}, inserted_at ${order}, id ${order}
      LIMIT ${params.add(options.limit + 1)}`,
    params.values,
  );
  const { rows: kept, page } = pageFromRows(
    rows.map((row) => ({ ...toWorkflowInstanceItem(row), cursorAt: row.cursor_at })),
    { limit: options.limit, direction, hasCursor: cursor !== null },
  );
  return { items: kept.map(({ cursorAt: _cursorAt, ...item }) => item), page };
}

export async function getWorkflowInstance(options: {
  db: TQueryable;
  id: string;
}): Promise<TWorkflowInstanceItem | null> {
  const { rows } = await options.db.query<Omit<InstanceRow, "cursor_at">>(
    `SELECT ${COLUMNS} FROM cyclium_workflow_instances WHERE id = $1`,
    [options.id],
  );
  const row = rows[0];
  return row ? toWorkflowInstanceItem(row) : null;
}
