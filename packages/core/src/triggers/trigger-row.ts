/** A `cyclium_triggers` row. */
export interface TriggerRow {
  id: string;
  name: string;
  env: string | null;
  kind: "cron" | "poll";
  cron: string | null;
  timezone: string | null;
  poll_interval_ms: number | null;
  workflow: string;
  catch_up: "skip" | "latest";
  paused: boolean;
  paused_by: string | null;
  paused_at: Date | null;
  next_fire_at: Date | null;
  last_fire_at: Date | null;
  inserted_at: Date;
  updated_at: Date;
}

export const TRIGGER_COLUMNS = `id, name, env, kind, cron, timezone, poll_interval_ms, workflow,
  catch_up, paused, paused_by, paused_at, next_fire_at, last_fire_at, inserted_at, updated_at`;

/** A trigger as the REST API and the console show it (SPEC section 12 keeps snake_case). */
export interface TriggerItem {
  name: string;
  kind: "cron" | "poll";
  workflow: string;
  cron: string | null;
  timezone: string | null;
  poll_interval_ms: number | null;
  catch_up: "skip" | "latest";
  paused: boolean;
  paused_by: string | null;
  paused_at: string | null;
  next_fire_at: string | null;
  last_fire_at: string | null;
  /** Workflows that run when it fires, primary first; known only where they are registered. */
  subscribers?: string[];
}

export function toTriggerItem(row: TriggerRow, subscribers?: string[]): TriggerItem {
  return {
    name: row.name,
    kind: row.kind,
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
