import type { Queryable } from "../db/index";

/**
 * The families that are one table each, pruned by age alone. Each statement picks its batch
 * through an index on the age column (migration 20261203000000_retention), oldest first, locks it
 * with SKIP LOCKED (a second pruner, or a writer holding a row, is passed over rather than waited
 * for) and deletes it: a short transaction per batch, no table rewrite, dead tuples left for
 * autovacuum at the rate rows arrived.
 */
export const AGE_PRUNED_FAMILIES = [
  "workClaims",
  "workflowInstances",
  "triggerFirings",
  "telemetryHours",
  "recoverySweeps",
  "prunerRuns",
  "expiredSessions",
  "clearedFindings",
  "auditLog",
] as const;

export type AgePrunedFamily = (typeof AGE_PRUNED_FAMILIES)[number];

interface AgeStatement {
  table: string;
  key: string;
  age: string;
  /** Rows that are finished and no longer referenced; the age test is added to it. */
  where: string;
}

const STATEMENTS: Record<AgePrunedFamily, AgeStatement> = {
  // A claim still `claimed` is live work (or a lease about to be stolen): never pruned.
  workClaims: {
    table: "cyclium_work_claims",
    key: "id",
    age: "updated_at",
    where: "x.state IN ('done', 'failed', 'expired')",
  },
  // Finished instances once none of their episodes is left (an actor kept longer keeps its
  // workflow's instance with it).
  workflowInstances: {
    table: "cyclium_workflow_instances",
    key: "id",
    age: "finished_at",
    where: `x.status IN ('done', 'failed', 'cancelled')
      AND NOT EXISTS (SELECT 1 FROM cyclium_episodes e WHERE e.workflow_instance_id = x.id)`,
  },
  // A firing still running, or named by a workflow instance still running, is kept.
  triggerFirings: {
    table: "cyclium_trigger_firings",
    key: "id",
    age: "inserted_at",
    where: `x.status <> 'running'
      AND NOT EXISTS (SELECT 1 FROM cyclium_workflow_instances w
                       WHERE w.firing_id = x.id AND w.status IN ('running', 'blocked'))`,
  },
  telemetryHours: { table: "cyclium_telemetry_hourly", key: "id", age: "bucket", where: "true" },
  recoverySweeps: {
    table: "cyclium_recovery_sweeps",
    key: "id",
    age: "inserted_at",
    where: "true",
  },
  prunerRuns: { table: "cyclium_pruner_runs", key: "id", age: "inserted_at", where: "true" },
  expiredSessions: { table: "cyclium_sessions", key: "id", age: "expires_at", where: "true" },
  clearedFindings: {
    table: "cyclium_findings",
    key: "id",
    age: "cleared_at",
    where: "x.status = 'cleared'",
  },
  auditLog: { table: "cyclium_audit_log", key: "id", age: "inserted_at", where: "true" },
};

function deleteSql({ table, key, age, where }: AgeStatement): string {
  return `DELETE FROM ${table} WHERE ${key} IN (
    SELECT x.${key} FROM ${table} x
     WHERE ${where}
       AND x.${age} < now() - make_interval(secs => $1::double precision / 1000)
     ORDER BY x.${age}
     LIMIT $2
     FOR UPDATE OF x SKIP LOCKED)`;
}

const SQL: Record<AgePrunedFamily, string> = Object.fromEntries(
  AGE_PRUNED_FAMILIES.map((family) => [family, deleteSql(STATEMENTS[family])]),
) as Record<AgePrunedFamily, string>;

/** Deletes up to `limit` rows of `family` older than `olderThanMs`; returns how many. */
export async function pruneByAge(
  options: { family: AgePrunedFamily; olderThanMs: number; limit: number },
  db: Queryable,
): Promise<number> {
  const { rowCount } = await db.query(SQL[options.family], [options.olderThanMs, options.limit]);
  return rowCount ?? 0;
}
