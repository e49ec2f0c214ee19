import type { Queryable } from "../db/index";
import { CronSchedule } from "./cron-schedule";
import { unknownTrigger } from "./inspect-trigger";
import { loadTrigger } from "./load-trigger";
import { parseInput } from "./parse-input";
import { setTriggerPaused } from "./set-trigger-paused";
import { envOfTenant, tenantIdOf } from "./tenant";
import {
  ZPauseTriggerInput,
  ZTriggerNameInput,
  type TPauseTriggerInput,
  type TTriggerNameInput,
} from "./trigger-inputs";

export interface PauseTriggerResult {
  tenant_id: string;
  name: string;
  paused: boolean;
}

/** `POST /api/v1/tenants/{t}/triggers/{name}/pause`: no node fires it until resumed. */
export async function pauseTrigger(
  options: { db: Queryable } & TPauseTriggerInput,
): Promise<PauseTriggerResult> {
  const input = parseInput(ZPauseTriggerInput, options);
  const env = envOfTenant(input.tenantId);
  const found = await setTriggerPaused(
    { name: input.name, env, paused: true, by: input.by ?? null },
    options.db,
  );
  if (!found) throw unknownTrigger(input.name, input.tenantId);
  return { tenant_id: tenantIdOf(env), name: input.name, paused: true };
}

/**
 * `POST /api/v1/tenants/{t}/triggers/{name}/resume`. The next fire is computed from now, so the
 * windows that passed while paused do not fire in a burst; with `catchUp: 'latest'` a missed
 * window stays pending and the scheduler fires the newest one once.
 */
export async function resumeTrigger(
  options: { db: Queryable } & TTriggerNameInput,
): Promise<PauseTriggerResult> {
  const input = parseInput(ZTriggerNameInput, options);
  const env = envOfTenant(input.tenantId);
  const row = await loadTrigger({ name: input.name, env }, options.db);
  if (!row) throw unknownTrigger(input.name, input.tenantId);
  const now = row.db_now;
  // Millisecond precision, as the turn claim compares it through a JS Date.
  let next: Date | null = new Date(now.getTime());
  if (row.kind === "cron" && row.cron !== null) {
    next = CronSchedule.parse(row.cron, row.timezone ?? "UTC").nextAfter(now);
  }
  const keep =
    row.kind === "cron" &&
    row.catch_up === "latest" &&
    row.next_fire_at !== null &&
    row.next_fire_at.getTime() <= now.getTime();
  const found = await setTriggerPaused(
    { name: input.name, env, paused: false, by: null, nextFireAt: next, keepNextFireAt: keep },
    options.db,
  );
  if (!found) throw unknownTrigger(input.name, input.tenantId);
  return { tenant_id: tenantIdOf(env), name: input.name, paused: false };
}
