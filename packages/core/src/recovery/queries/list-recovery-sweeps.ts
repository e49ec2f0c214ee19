import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";

export interface RecoverySweepItem {
  id: string;
  node: string;
  trigger: string;
  requestedBy: string | null;
  sourceStack: string | null;
  sourceEnv: string | null;
  found: number;
  claimed: number;
  restarted: number;
  failed: number;
  skipped: number;
  reconciled: number;
  durationMs: number;
  insertedAt: Date;
}

export interface NodeSweepActivity {
  node: string;
  /** Sweeps the node ran in the window (from its telemetry rollups). */
  sweeps: number;
  lastSweepAt: Date | null;
}

/** The newest recorded sweeps of an env (cyclium_recovery_sweeps_env_inserted_at_id_idx). */
export async function listRecoverySweeps(options: {
  db: Queryable;
  env: string | null;
  limit: number;
}): Promise<RecoverySweepItem[]> {
  const params = new SqlParams();
  const scope = envScopeSql("source_env", options.env, params);
  const { rows } = await options.db.query<{
    id: string;
    node: string;
    trigger: string;
    requested_by: string | null;
    source_stack: string | null;
    source_env: string | null;
    found: number;
    claimed: number;
    restarted: number;
    failed: number;
    skipped: number;
    reconciled: number;
    duration_ms: number;
    inserted_at: Date;
  }>(
    `SELECT id::text, node, trigger, requested_by, source_stack, source_env, found, claimed,
            restarted, failed, skipped, reconciled, duration_ms, inserted_at
       FROM cyclium_recovery_sweeps WHERE ${scope}
      ORDER BY source_env, inserted_at DESC, id DESC LIMIT ${params.add(options.limit)}`,
    params.values,
  );
  return rows.map((row) => ({
    id: row.id,
    node: row.node,
    trigger: row.trigger,
    requestedBy: row.requested_by,
    sourceStack: row.source_stack,
    sourceEnv: row.source_env,
    found: row.found,
    claimed: row.claimed,
    restarted: row.restarted,
    failed: row.failed,
    skipped: row.skipped,
    reconciled: row.reconciled,
    durationMs: row.duration_ms,
    insertedAt: row.inserted_at,
  }));
}

/**
 * Automatic sweeps per node over the last `hours`, from the `cyclium.recovery.sweep` telemetry
 * rollups every node writes: shows that each worker's recovery timer is running even when it
 * finds nothing to record.
 */
export async function listNodeSweepActivity(options: {
  db: Queryable;
  hours: number;
}): Promise<NodeSweepActivity[]> {
  const { rows } = await options.db.query<{ node: string; sweeps: string; last: Date | null }>(
    `SELECT node, sum(count)::text AS sweeps, max(bucket) AS last
       FROM cyclium_telemetry
      WHERE event = 'cyclium.recovery.sweep' AND bucket >= now() - make_interval(hours => $1)
      GROUP BY node ORDER BY node`,
    [options.hours],
  );
  return rows.map((row) => ({
    node: row.node,
    sweeps: Number(row.sweeps),
    lastSweepAt: row.last,
  }));
}

/** Stores one sweep's outcome (SweepResult plus who asked) for the Recovery page. */
export async function recordRecoverySweep(options: {
  db: Queryable;
  sweep: Omit<RecoverySweepItem, "id" | "insertedAt">;
}): Promise<string> {
  const s = options.sweep;
  const { rows } = await options.db.query<{ id: string }>(
    `INSERT INTO cyclium_recovery_sweeps
       (node, trigger, requested_by, source_stack, source_env, found, claimed, restarted, failed,
        skipped, reconciled, duration_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id::text`,
    [
      s.node,
      s.trigger,
      s.requestedBy,
      s.sourceStack,
      s.sourceEnv,
      s.found,
      s.claimed,
      s.restarted,
      s.failed,
      s.skipped,
      s.reconciled,
      s.durationMs,
    ],
  );
  return rows[0]?.id ?? "";
}
