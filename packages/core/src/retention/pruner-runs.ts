import type { Queryable } from "../db/index";
import type { PrunedCounts, PrunerRun, PrunerTrigger } from "./pruner-run-row";
import type { RetentionPolicy } from "./retention-policy";

interface PrunerRunDbRow {
  id: string;
  node: string;
  trigger: PrunerTrigger;
  requested_by: string | null;
  status: PrunerRun["status"];
  policies: RetentionPolicy;
  deleted: PrunedCounts;
  total_deleted: string;
  batches: number;
  duration_ms: number;
  inserted_at: Date;
}

const COLUMNS = `id::text, node, trigger, requested_by, status, policies, deleted,
  total_deleted::text, batches, duration_ms, inserted_at`;

function toPrunerRun(row: PrunerRunDbRow): PrunerRun {
  return {
    id: row.id,
    node: row.node,
    trigger: row.trigger,
    requestedBy: row.requested_by,
    status: row.status,
    policies: row.policies,
    deleted: row.deleted,
    totalDeleted: Number(row.total_deleted),
    batches: row.batches,
    durationMs: row.duration_ms,
    insertedAt: row.inserted_at,
  };
}

/** Stores one run (after it ended: a run killed midway leaves its deletions and no record). */
export async function recordPrunerRun(
  run: Omit<PrunerRun, "id" | "insertedAt">,
  db: Queryable,
): Promise<PrunerRun> {
  const { rows } = await db.query<PrunerRunDbRow>(
    `INSERT INTO cyclium_pruner_runs
       (node, trigger, requested_by, status, policies, deleted, total_deleted, batches, duration_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${COLUMNS}`,
    [
      run.node,
      run.trigger,
      run.requestedBy,
      run.status,
      JSON.stringify(run.policies),
      JSON.stringify(run.deleted),
      run.totalDeleted,
      run.batches,
      run.durationMs,
    ],
  );
  return toPrunerRun(rows[0] as PrunerRunDbRow);
}

/** The newest runs, cluster-wide (cyclium_pruner_runs_inserted_at_id_idx). */
export async function listPrunerRuns(
  options: { limit: number },
  db: Queryable,
): Promise<PrunerRun[]> {
  const { rows } = await db.query<PrunerRunDbRow>(
    `SELECT ${COLUMNS} FROM cyclium_pruner_runs ORDER BY inserted_at DESC, id DESC LIMIT $1`,
    [options.limit],
  );
  return rows.map(toPrunerRun);
}
