import type { EpisodeModel } from "@cyclium/db/models";
import type { FieldsOf, Narrow, RowOf } from "../db/row-of";
import type { TraceCarrier } from "../tracing/index";
/** `cyclium_episodes.status`. */
export const EPISODE_STATUSES = [
  "pending",
  "running",
  "waiting",
  "completed",
  "failed",
  "cancelled",
] as const;
export type EpisodeStatus = (typeof EPISODE_STATUSES)[number];

/** `cyclium_episodes.trigger_type`. */
export const TRIGGER_TYPES = ["schedule", "event", "poll", "manual", "workflow"] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * Columns the runtime and the console do not read as part of an episode. `leaseUntil` belongs to
 * the episode's own lease (episodes/lease/), read by the statements that hold or test it.
 */
type UnreadField =
  "queuedBy" | "queuedAt" | "recoveryHistory" | "leaseUntil" | "limitKeys" | "limitWait";

/** An episode as core returns it: the Prisma model with its unions, numbers and JSON typed. */
export type Episode = Narrow<
  FieldsOf<Omit<EpisodeModel, UnreadField>>,
  {
    status: EpisodeStatus;
    triggerType: TriggerType;
    tokensUsed: number;
    traceContext: TraceCarrier | null;
  }
>;

/** The row as pg returns it (BIGINT arrives as a string). */
export type EpisodeRow = Narrow<
  RowOf<Omit<EpisodeModel, UnreadField>>,
  { status: EpisodeStatus; trigger_type: TriggerType; trace_context: TraceCarrier | null }
>;

/**
 * An episode as a list shows it: without its payloads (input, result, error message) and the
 * fields only its own page shows. The same columns the console's list always read, so a page of
 * 200 rows stays light and the list's cost at 1M episodes is unchanged (issue 12).
 */
export type EpisodeSummary = Omit<Episode, DetailOnlyField>;
export type EpisodeSummaryRow = Omit<EpisodeRow, DetailOnlyColumn>;

type DetailOnlyField =
  | "input"
  | "result"
  | "errorMessage"
  | "dedupeKey"
  | "workflowInstanceId"
  | "workflowStep"
  | "updatedAt"
  | "traceContext";
const DETAIL_ONLY_COLUMNS = [
  "input",
  "result",
  "error_message",
  "dedupe_key",
  "workflow_instance_id",
  "workflow_step",
  "updated_at",
  "trace_context",
] as const;
type DetailOnlyColumn = (typeof DETAIL_ONLY_COLUMNS)[number];

/** The column list of an EpisodeSummaryRow, qualified with `alias` when given. */
export function episodeSummaryColumns(alias?: string): string {
  const detailOnly = new Set<string>(DETAIL_ONLY_COLUMNS);
  return episodeColumns(alias)
    .split(", ")
    .filter((column) => !detailOnly.has(column.slice(column.indexOf(".") + 1)))
    .join(", ");
}

/** The column list for RETURNING / SELECT, qualified with `alias` when given. */
export function episodeColumns(alias?: string): string {
  const prefix = alias ? `${alias}.` : "";
  return [
    "id",
    "actor_id",
    "expectation_id",
    "status",
    "phase",
    "trigger_type",
    "dedupe_key",
    "input",
    "result",
    "error_class",
    "error_message",
    "attempt",
    "turns_used",
    "tokens_used",
    "source_node",
    "source_stack",
    "source_env",
    "executed_by",
    "workflow_instance_id",
    "workflow_step",
    "inserted_at",
    "updated_at",
    "started_at",
    "finished_at",
    "archived_at",
    "trace_context",
  ]
    .map((column) => prefix + column)
    .join(", ");
}

export function toEpisodeSummary(row: EpisodeSummaryRow): EpisodeSummary {
  return {
    id: row.id,
    actorId: row.actor_id,
    expectationId: row.expectation_id,
    status: row.status,
    phase: row.phase,
    triggerType: row.trigger_type,
    errorClass: row.error_class,
    attempt: row.attempt,
    turnsUsed: row.turns_used,
    // Token counts stay far below 2^53; a number is what every caller wants.
    tokensUsed: Number(row.tokens_used),
    sourceNode: row.source_node,
    sourceStack: row.source_stack,
    sourceEnv: row.source_env,
    executedBy: row.executed_by,
    insertedAt: row.inserted_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    archivedAt: row.archived_at,
  };
}

export function toEpisode(row: EpisodeRow): Episode {
  return {
    ...toEpisodeSummary(row),
    dedupeKey: row.dedupe_key,
    input: row.input,
    result: row.result,
    errorMessage: row.error_message,
    workflowInstanceId: row.workflow_instance_id,
    workflowStep: row.workflow_step,
    updatedAt: row.updated_at,
    traceContext: row.trace_context,
  };
}
