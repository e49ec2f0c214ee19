import type { TriggerModel } from "@cyclium/db/models";
import type { Narrow, RowOf } from "../db/row-of";
import type { CatchUpPolicy } from "./trigger-definition";

/** `cyclium_triggers.kind`: an interval keeps its window size in `poll_interval_ms`. */
export type TriggerKindName = "cron" | "interval" | "poll";

/** A `cyclium_triggers` row. */
export type TriggerRow = Narrow<
  RowOf<TriggerModel>,
  { kind: TriggerKindName; catch_up: CatchUpPolicy }
>;

export const TRIGGER_COLUMNS = `id, name, env, kind, cron, timezone, poll_interval_ms, workflow,
  catch_up, paused, paused_by, paused_at, next_fire_at, last_fire_at, inserted_at, updated_at`;

/**
 * A trigger as Cloacina's clients read it (its OpenAPI 0.10.0 `ScheduleItem`): a cron trigger is
 * a `cron` schedule, a poll trigger a `trigger` one. Cloacina has no interval schedule; ours is a
 * `trigger` whose `poll_interval_ms` is the interval (a Cloacina trigger polled that often whose
 * condition always holds fires on the same beat), with `kind: "interval"` and `interval_ms`
 * beside it. `enabled` is `!paused`: a paused trigger is
 * one the scheduler leaves alone, which is what Cloacina's flag says too.
 */
export interface CloacinaScheduleFields {
  id: string;
  schedule_type: "cron" | "trigger";
  workflow_name: string;
  enabled: boolean;
  created_at: string;
  cron_expression: string | null;
  poll_interval_ms: number | null;
  trigger_name: string | null;
  paused: boolean;
  paused_at: string | null;
  last_run_at: string | null;
  next_run_at: string | null;
}

/**
 * A trigger as the REST API and the console show it (SPEC section 12 keeps snake_case): Cloacina's
 * fields, and ours beside them (the console reads ours).
 */
export interface TriggerItem extends CloacinaScheduleFields {
  name: string;
  kind: TriggerKindName;
  /** The window size of an interval schedule; null for cron and poll triggers. */
  interval_ms: number | null;
  workflow: string;
  cron: string | null;
  timezone: string | null;
  catch_up: CatchUpPolicy;
  paused_by: string | null;
  next_fire_at: string | null;
  last_fire_at: string | null;
  /** Workflows that run when it fires, primary first; known only where they are registered. */
  subscribers?: string[];
}

export function toTriggerItem(row: TriggerRow, subscribers?: string[]): TriggerItem {
  return {
    id: row.id,
    schedule_type: row.kind === "cron" ? "cron" : "trigger",
    workflow_name: row.workflow,
    enabled: !row.paused,
    created_at: row.inserted_at.toISOString(),
    cron_expression: row.cron,
    trigger_name: row.name,
    last_run_at: iso(row.last_fire_at),
    next_run_at: iso(row.next_fire_at),
    name: row.name,
    kind: row.kind,
    interval_ms: row.kind === "interval" ? row.poll_interval_ms : null,
    workflow: row.workflow,
    cron: row.cron,
    timezone: row.timezone,
    poll_interval_ms: row.poll_interval_ms,
    catch_up: row.catch_up,
    paused: row.paused,
    paused_by: row.paused_by,
    paused_at: iso(row.paused_at),
    next_fire_at: iso(row.next_fire_at),
    last_fire_at: iso(row.last_fire_at),
    ...(subscribers ? { subscribers } : {}),
  };
}

export function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}
