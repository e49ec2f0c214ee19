import type { Queryable } from "../db/index";
import { CronSchedule } from "./cron-schedule";
import { IntervalSchedule } from "./interval-schedule";
import { unknownTrigger } from "./inspect-trigger";
import { loadTrigger } from "./load-trigger";
import { parseInput } from "./parse-input";
import { setTriggerPaused } from "./set-trigger-paused";
import { envOfTenant } from "./tenant";
import {
  ZPauseTriggerInput,
  ZTriggerNameInput,
  type TPauseTriggerInput,
  type TTriggerNameInput,
} from "./trigger-inputs";

/**
 * Cloacina's pause/resume answer `{tenant_id, id, name, status, paused}`: `name` is the name the
 * caller used (a trigger's or its workflow's), `id` the trigger's row id.
 */
export interface PauseTriggerResult {
  tenant_id: string;
  id: string;
  name: string;
  status: "paused" | "resumed";
  paused: boolean;
}

/**
 * `POST /v1/tenants/{t}/triggers/{name}/pause`: no node's scheduler fires it until resumed. An
 * operator still may (`fireTrigger`): Cloacina's pause stops the schedule, not the people.
 */
export async function pauseTrigger(
  options: { db: Queryable } & TPauseTriggerInput,
): Promise<PauseTriggerResult> {
  const input = parseInput(ZPauseTriggerInput, options);
  const row = await loadTrigger({ name: input.name, env: envOfTenant(input.tenantId) }, options.db);
  const found =
    row !== null &&
    (await setTriggerPaused({ triggerId: row.id, paused: true, by: input.by ?? null }, options.db));
  if (!found) throw unknownTrigger(input.name, input.tenantId);
  return {
    tenant_id: input.tenantId,
    id: row.id,
    name: input.name,
    status: "paused",
    paused: true,
  };
}

/**
 * `POST /v1/tenants/{t}/triggers/{name}/resume`. The next fire is computed from now, so the
 * windows that passed while paused do not fire in a burst; with `catchUp: 'latest'` or
 * `'run_all'` a missed window stays pending and the scheduler catches up by that policy.
 */
export async function resumeTrigger(
  options: { db: Queryable } & TTriggerNameInput,
): Promise<PauseTriggerResult> {
  const input = parseInput(ZTriggerNameInput, options);
  const row = await loadTrigger({ name: input.name, env: envOfTenant(input.tenantId) }, options.db);
  if (!row) throw unknownTrigger(input.name, input.tenantId);
  const now = row.db_now;
  // Millisecond precision, as the turn claim compares it through a JS Date.
  let next: Date | null = new Date(now.getTime());
  if (row.kind === "cron" && row.cron !== null) {
    next = CronSchedule.parse(row.cron, row.timezone ?? "UTC").nextAfter(now);
  } else if (row.kind === "interval" && row.poll_interval_ms !== null) {
    next = IntervalSchedule.of(row.poll_interval_ms).nextAfter(now);
  }
  const keep =
    row.kind !== "poll" &&
    row.catch_up !== "skip" &&
    row.next_fire_at !== null &&
    row.next_fire_at.getTime() <= now.getTime();
  const found = await setTriggerPaused(
    { triggerId: row.id, paused: false, by: null, nextFireAt: next, keepNextFireAt: keep },
    options.db,
  );
  if (!found) throw unknownTrigger(input.name, input.tenantId);
  return {
    tenant_id: input.tenantId,
    id: row.id,
    name: input.name,
    status: "resumed",
    paused: false,
  };
}
