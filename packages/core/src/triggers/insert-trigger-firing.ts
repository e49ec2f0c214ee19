import type { Queryable } from "../db/index";
import type { FiringSource } from "./trigger-firing-row";

export interface InsertTriggerFiringOptions {
  triggerId: string;
  triggerName: string;
  env: string | null;
  contextHash: string;
  context: Record<string, unknown>;
  scheduledTime: Date | null;
  source: FiringSource;
  firedBy: string;
}

/**
 * Opens a firing, unless one with the same context hash is still open: the partial unique index
 * `cyclium_trigger_firings_open_context_key` (status = 'running') makes exactly one insert win,
 * so the same fire never runs twice, whichever nodes and paths (poll, cron, manual) race for it.
 */
const SQL = `
INSERT INTO cyclium_trigger_firings
  (trigger_id, trigger_name, env, context_hash, context, scheduled_time, source, status, fired_by)
VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, 'running', $8)
ON CONFLICT (trigger_id, context_hash) WHERE status = 'running' DO NOTHING
RETURNING id`;

/** The new firing's id, or null when an open firing with this context already exists. */
export async function insertTriggerFiring(
  options: InsertTriggerFiringOptions,
  db: Queryable,
): Promise<string | null> {
  const result = await db.query<{ id: string }>(SQL, [
    options.triggerId,
    options.triggerName,
    options.env,
    options.contextHash,
    JSON.stringify(options.context),
    options.scheduledTime,
    options.source,
    options.firedBy,
  ]);
  return result.rows[0]?.id ?? null;
}
