import type pg from "pg";
import { insertAuditEntry } from "./audit-entry";
import { auditEntry, recordAuditedError, type TAuditContext, type TAuditedAction } from "./audited";

/**
 * The audit of a command that commits in many transactions (a bulk retry of 100,000 episodes runs
 * in batches of 500, so that no transaction holds locks for minutes and none times out): `audited`
 * cannot hold it in one transaction, so its ONE row is written when it ends, with what it did
 * (`ok`, the outcome under `detail.outcome`), or, when it failed part-way, what the committed
 * batches had done before it stopped (`error`, `detail.doneBeforeError`). `work` reports each
 * committed batch's totals through `progress`.
 */
export async function auditedBulk<T extends object>(
  ctx: TAuditContext,
  what: TAuditedAction,
  work: (db: pg.Pool, progress: (done: T) => void) => Promise<T>,
): Promise<T> {
  let done: T | undefined;
  let result: T;
  try {
    result = await work(ctx.db, (progress) => {
      done = progress;
    });
  } catch (error) {
    await recordAuditedError(ctx, what, error, { doneBeforeError: done ?? null });
    throw error;
  }
  await insertAuditEntry(ctx.db, {
    ...auditEntry(ctx, what),
    outcome: "ok",
    detail: { ...what.detail, outcome: result },
  });
  return result;
}
