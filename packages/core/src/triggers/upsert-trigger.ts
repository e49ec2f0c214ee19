import type { Queryable } from "../db/index";
import type { CatchUpPolicy } from "./trigger-definition";
import { TRIGGER_COLUMNS, type TriggerKindName, type TriggerRow } from "./trigger-row";

export interface UpsertTriggerOptions {
  name: string;
  env: string | null;
  kind: TriggerKindName;
  cron: string | null;
  timezone: string | null;
  pollIntervalMs: number | null;
  workflow: string;
  catchUp: CatchUpPolicy;
  /** The next fire time if the rule is new or changed; an unchanged rule keeps its stored one. */
  nextFireAt: Date | null;
}

/**
 * Registration, run by every node at start-up. The stored `next_fire_at` survives a restart with
 * an unchanged rule: windows that passed while no node ran are then seen as missed and handled
 * by the catch-up policy. `paused` is never touched here: an operator's pause outlives deploys.
 */
const SQL = `
INSERT INTO cyclium_triggers AS t
  (name, env, kind, cron, timezone, poll_interval_ms, workflow, catch_up, next_fire_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (name, env) DO UPDATE
   SET kind = EXCLUDED.kind,
       cron = EXCLUDED.cron,
       timezone = EXCLUDED.timezone,
       poll_interval_ms = EXCLUDED.poll_interval_ms,
       workflow = EXCLUDED.workflow,
       catch_up = EXCLUDED.catch_up,
       next_fire_at = CASE
         WHEN t.kind IS DISTINCT FROM EXCLUDED.kind
           OR t.cron IS DISTINCT FROM EXCLUDED.cron
           OR t.timezone IS DISTINCT FROM EXCLUDED.timezone
           OR (EXCLUDED.kind = 'interval'
               AND t.poll_interval_ms IS DISTINCT FROM EXCLUDED.poll_interval_ms)
           OR t.next_fire_at IS NULL
         THEN EXCLUDED.next_fire_at
         ELSE t.next_fire_at
       END,
       updated_at = now()
RETURNING ${TRIGGER_COLUMNS}`;

export async function upsertTrigger(
  options: UpsertTriggerOptions,
  db: Queryable,
): Promise<TriggerRow> {
  const result = await db.query<TriggerRow>(SQL, [
    options.name,
    options.env,
    options.kind,
    options.cron,
    options.timezone,
    options.pollIntervalMs,
    options.workflow,
    options.catchUp,
    options.nextFireAt,
  ]);
  const row = result.rows[0];
  if (!row) throw new Error("upsert ... RETURNING gave no row");
  return row;
}
