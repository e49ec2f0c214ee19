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
import { withTransaction, isCycliumError } from "@cyclium/core/console";
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
 * counted, and each address's count is written as one `refusals.capped` row when its minute is
 * over (OWASP ASVS V16: failures are logged, none silently dropped). Signed-in callers are always
 * written: they are accountable and bounded by their account. Without the cap, an anonymous
 * script could fill the audit table at the speed of refused requests (one POST batched 40
 * audited mutations, issue 13).
 */
const ANONYMOUS_ROWS_PER_MINUTE = 30;
const anonymousRows = new Map<string, { minute: number; rows: number }>();

function anonymousRowAllowed(ip: string | null, minute: number): boolean {
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

interface TCappedRefusals {
  db: pg.Pool;
  ip: string | null;
  minute: number;
  refusals: number;
  reasons: Partial<Record<TRefusalReason, number>>;
}

/** Refusals past the cap, per address and minute, until their summary row is written. */
const cappedRefusals = new Map<string, TCappedRefusals>();
let summaryTimer: NodeJS.Timeout | undefined;

function countCappedRefusal(
  db: pg.Pool,
  ip: string | null,
  minute: number,
  reason: TRefusalReason,
): void {
  const key = `${ip ?? "-"} ${minute}`;
  let capped = cappedRefusals.get(key);
  if (capped === undefined) {
    capped = { db, ip, minute, refusals: 0, reasons: {} };
    cappedRefusals.set(key, capped);
  }
  capped.refusals += 1;
  capped.reasons[reason] = (capped.reasons[reason] ?? 0) + 1;
  // Just after the minute ends.
  scheduleSummaries((minute + 1) * 60_000 - Date.now() + 1_000);
}

function scheduleSummaries(delayMs: number): void {
  if (summaryTimer !== undefined) return;
  summaryTimer = setTimeout(() => {
    summaryTimer = undefined;
    void writeCappedRefusalSummaries();
  }, delayMs);
  // A process that is stopping does not wait for it.
  summaryTimer.unref();
}

/**
 * Writes one `refusals.capped` row per address for each minute that is over (every pending
 * minute with `all`, for a test or a clean shutdown): how many refusals went unwritten, by reason.
 * Never throws.
 */
export async function writeCappedRefusalSummaries(options: { all?: boolean } = {}): Promise<void> {
  const currentMinute = Math.floor(Date.now() / 60_000);
  const due = [...cappedRefusals].filter(
    ([, capped]) => options.all === true || capped.minute < currentMinute,
  );
  for (const [key, capped] of due) {
    cappedRefusals.delete(key);
    try {
      await insertAuditEntry(capped.db, {
        principal: null,
        action: "refusals.capped",
        target: null,
        outcome: "refused",
        ip: capped.ip,
        detail: {
          refusals: capped.refusals,
          reasons: capped.reasons,
          from: new Date(capped.minute * 60_000).toISOString(),
          to: new Date((capped.minute + 1) * 60_000).toISOString(),
        },
      });
    } catch (error) {
      console.error("audit: could not record a summary of capped refusals", error);
    }
  }
  // Refusals of the current minute wait for their own timer.
  if (cappedRefusals.size > 0) scheduleSummaries(61_000);
}

/**
 * Counts a call the refusal limit answered 429 before any database work (auth/refusal-limiter.ts)
 * into its address's `refusals.capped` row, written once the minute is over: the call itself
 * still costs no query.
 */
export function countBlockedRefusal(db: pg.Pool, ip: string | null): void {
  countRefusal("rate_limited");
  countCappedRefusal(db, ip, Math.floor(Date.now() / 60_000), "rate_limited");
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
  const minute = Math.floor(Date.now() / 60_000);
  if (refusal.principal === null && !anonymousRowAllowed(refusal.ip, minute)) {
    countCappedRefusal(db, refusal.ip, minute, refusal.reason);
    return;
  }
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
