import {
  PostgresWorkClaims,
  runPruner,
  type RetentionPolicy,
  type RunPrunerResult,
  silentLogger,
  Telemetry,
} from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core/console";
import type pg from "pg";

/**
 * "Prune now" from the Recovery page. The deletes run in `db`, the audited transaction, so the
 * run and its audit row commit together; to keep that transaction short a manual run does at most
 * 10 batches per family (a worker's timer drains the rest). The claim lives on the pool: a
 * worker's run in progress makes this one `busy`, never a second pruner beside it.
 */
export async function runPrunerNow(options: {
  pool: pg.Pool;
  db: Queryable;
  nodeIdentity: string;
  policy: RetentionPolicy;
  batchSize: number;
  requestedBy: string;
}): Promise<RunPrunerResult> {
  return runPruner(
    {
      claims: new PostgresWorkClaims({ db: options.pool }),
      owner: options.nodeIdentity,
      leaseSeconds: 120,
      policy: options.policy,
      trigger: "manual",
      requestedBy: options.requestedBy,
      batchSize: options.batchSize,
      maxBatches: 10,
      logger: silentLogger,
      telemetry: new Telemetry(),
    },
    options.db,
  );
}
