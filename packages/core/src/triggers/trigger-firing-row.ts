import type { TriggerFiringModel } from "@cyclium/db/models";
import type { Narrow, RowOf } from "../db/row-of";
import { iso } from "./trigger-row";

/** One subscriber's part in a firing, stored in `cyclium_trigger_firings.outcomes`. */
export interface FiringOutcome {
  workflow: string;
  primary: boolean;
  status: "started" | "failed";
  instance_id: string | null;
  error: string | null;
}

export type FiringSource = "cron" | "interval" | "poll" | "manual";

export type TriggerFiringRow = Narrow<
  RowOf<TriggerFiringModel>,
  {
    context: Record<string, unknown>;
    source: FiringSource;
    status: "running" | "completed" | "failed";
    outcomes: FiringOutcome[];
  }
>;

export const FIRING_COLUMNS = `id, trigger_id, trigger_name, env, context_hash, context,
  scheduled_time, source, status, outcomes, error_message, fired_by, inserted_at, finished_at`;

/** A firing as the REST API shows it in `recent_firings`. */
export interface FiringItem {
  id: string;
  source: FiringSource;
  status: "running" | "completed" | "failed";
  context_hash: string;
  context: Record<string, unknown>;
  scheduled_time: string | null;
  outcomes: FiringOutcome[];
  error_message: string | null;
  fired_by: string | null;
  fired_at: string;
  finished_at: string | null;
}

export function toFiringItem(row: TriggerFiringRow): FiringItem {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    context_hash: row.context_hash,
    context: row.context,
    scheduled_time: iso(row.scheduled_time),
    outcomes: row.outcomes,
    error_message: row.error_message,
    fired_by: row.fired_by,
    fired_at: row.inserted_at.toISOString(),
    finished_at: iso(row.finished_at),
  };
}

/**
 * A firing as Cloacina's inspect lists it in `recent_executions`: it started when it was recorded
 * and completed when its primary workflow finished (null while it runs).
 */
export interface ExecutionItem {
  id: string;
  started_at: string;
  completed_at: string | null;
  scheduled_time: string | null;
}

export function toExecutionItem(row: TriggerFiringRow): ExecutionItem {
  return {
    id: row.id,
    started_at: row.inserted_at.toISOString(),
    completed_at: iso(row.finished_at),
    scheduled_time: iso(row.scheduled_time),
  };
}
