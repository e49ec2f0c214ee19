/**
 * The one way to change state from the console (tRPC or REST):
 *
 *   audited(ctx, { action: "triggers.pause", target: name }, (tx) => pauseTrigger({ db: tx, name }))
 *
 * runs the work and its `cyclium_audit_log` row (outcome `ok`) in ONE transaction on one pooled
 * connection, so an action is never done without its record nor recorded without being done. When
 * the work throws, the transaction rolls back and an `error` row is written on its own (expected
 * CycliumErrors keep their code and message; bugs only say `internal`), then the error is rethrown
 * for the caller's error mapping. Refused attempts (no session, role too low, cross-origin) are
 * recorded by the procedure builder (trpc/init.ts) and the REST handler via `recordRefusal`.
 */
import { withTransaction } from "@cyclium/core/db";
import { isCycliumError } from "@cyclium/core/errors";
import type pg from "pg";
import type { TPrincipal } from "../auth/principal";
import { countRefusal } from "../metrics/web-metrics";
import { insertAuditEntry } from "./audit-entry";

export interface TAuditContext {
  db: pg.Pool;
  principal: TPrincipal;
  request: { ip: string | null };
}

export interface TAuditedAction {
  action: string;
  target?: string | null;
  /** Extra facts worth keeping (never secrets): e.g. `{ idempotencyKey }`. */
  detail?: Record<string, unknown>;
}

export async function audited<T>(
  ctx: TAuditContext,
  what: TAuditedAction,
  work: (tx: pg.PoolClient) => Promise<T>,
): Promise<T> {
  try {
    return await withTransaction(ctx.db, async (tx) => {
      const result = await work(tx);
      await insertAuditEntry(tx, { ...auditEntry(ctx, what), outcome: "ok", detail: what.detail });
      return result;
    });
  } catch (error) {
    await recordAuditedError(ctx, what, error);
    throw error;
  }
}

/** Who did what to which target from where: an audit row before its outcome. */
export function auditEntry(ctx: TAuditContext, what: TAuditedAction) {
  return {
    principal: ctx.principal,
    action: what.action,
    target: what.target ?? null,
    ip: ctx.request.ip,
  };
}

/**
 * The `error` row of an action that threw, on its own (outside the rolled-back work): an expected
 * CycliumError keeps its code and message, a bug only says `internal`; `extra` joins the detail.
 * A failure to write it is logged, never thrown over the action's own error.
 */
export async function recordAuditedError(
  ctx: TAuditContext,
  what: TAuditedAction,
  error: unknown,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const failure = isCycliumError(error)
    ? { code: error.code, message: error.message }
    : { code: "internal" };
  await insertAuditEntry(ctx.db, {
    ...auditEntry(ctx, what),
    outcome: "error",
    detail: { ...what.detail, ...failure, ...extra },
  }).catch((auditError: unknown) => {
    console.error(`audit: could not record failed ${what.action}`, auditError);
  });
}

export type TRefusalReason =
  "unauthenticated" | "role" | "tenant" | "cross_origin" | "rate_limited" | "invalid_input";

/**
 * Anonymous refusals are written at most this often per address and process; past that they are
 * only counted (cyclium_web_refusals_total). Signed-in callers are always written: they are
 * accountable and bounded by their account. Without the cap, an anonymous script could fill the
 * audit table at the speed of refused requests (one POST batched 40 audited mutations, issue 13).
 */
const ANONYMOUS_ROWS_PER_MINUTE = 30;
const anonymousRows = new Map<string, { minute: number; rows: number }>();

function anonymousRowAllowed(ip: string | null, now = Date.now()): boolean {
  const minute = Math.floor(now / 60_000);
  const key = ip ?? "-";
  const bucket = anonymousRows.get(key);
  if (bucket === undefined || bucket.minute !== minute) {
    // Old minutes are dropped as they are met, so the map holds at most the addresses seen in
    // the last minute or so.
    if (anonymousRows.size > 10_000) anonymousRows.clear();
    anonymousRows.set(key, { minute, rows: 1 });
    return true;
  }
  bucket.rows += 1;
  return bucket.rows <= ANONYMOUS_ROWS_PER_MINUTE;
}

/** Records a refused attempt. Never throws: a refusal must be answered even if the log is down. */
export async function recordRefusal(
  db: pg.Pool,
  refusal: {
    principal: TPrincipal | null;
    action: string;
    target?: string | null;
    ip: string | null;
    reason: TRefusalReason;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  countRefusal(refusal.reason);
  if (refusal.principal === null && !anonymousRowAllowed(refusal.ip)) return;
  try {
    await insertAuditEntry(db, {
      principal: refusal.principal,
      action: refusal.action,
      target: refusal.target ?? null,
      outcome: "refused",
      ip: refusal.ip,
      detail: { reason: refusal.reason, ...refusal.detail },
    });
  } catch (error) {
    console.error(`audit: could not record refused ${refusal.action}`, error);
  }
}
