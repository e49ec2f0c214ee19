// Trigger rows for REST and console tests, written as a node's scheduler would register them.
import { randomUUID } from "node:crypto";
import type pg from "pg";

/** A daily cron trigger in the unset env (tenant `default`) with a unique name. */
export async function insertCronTrigger(
  db: pg.Pool,
  options: { workflow?: string; env?: string | null } = {},
): Promise<string> {
  const name = `e2e_nightly_${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO cyclium_triggers (name, env, kind, cron, timezone, workflow, next_fire_at)
     VALUES ($1, $2, 'cron', '0 2 * * *', 'UTC', $3, now() + interval '1 day')`,
    [name, options.env ?? null, options.workflow ?? "e2e_review"],
  );
  return name;
}

export async function auditOutcomes(
  db: pg.Pool,
  options: { action: string; since: Date },
): Promise<{ principal: string; outcome: string; target: string | null; reason: string | null }[]> {
  const { rows } = await db.query<{
    principal: string;
    outcome: string;
    target: string | null;
    reason: string | null;
  }>(
    `SELECT principal, outcome, target, detail->>'reason' AS reason FROM cyclium_audit_log
      WHERE action = $1 AND inserted_at >= $2 ORDER BY id`,
    [options.action, options.since],
  );
  return rows;
}
