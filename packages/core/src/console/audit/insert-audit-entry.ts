import type { Queryable } from "../../db/index";
import type { AuditOutcome } from "./audit-outcome";

export interface AuditEntry {
  /** cyclium_users.id of a signed-in user, else null. */
  userId: string | null;
  /** Who, as the log shows it: `user:alice@example.com`, `token:ci-deploy`, `anonymous`. */
  principal: string;
  /** What was attempted, e.g. `triggers.fire`, `admin.users.create`, `auth.sign_in`. */
  action: string;
  /** What it was attempted on, e.g. `resource_monitor/check`; null when there is no single target. */
  target: string | null;
  outcome: AuditOutcome;
  ip: string | null;
  detail?: Record<string, unknown> | undefined;
}

// What PostgreSQL cannot store: NUL in text (and `\u0000` in jsonb), and lone surrogates, which
// have no UTF-8 encoding. Each becomes U+FFFD, so an input holding one is still recorded (issue
// 13: such an action was answered but its audit row failed to insert, leaving no trace).
// eslint-disable-next-line no-control-regex -- NUL is what is being replaced.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const sanitizeText = (text: string): string => text.replace(UNSTORABLE, "\ufffd");

/** Strings (keys too) sanitized; deeper than 16 levels summarised, so the walk stays small. */
export function sanitizeValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return sanitizeText(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= 16) return "[nested too deep]";
  if (Array.isArray(value)) return value.map((item) => sanitizeValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [sanitizeText(key), sanitizeValue(item, depth + 1)]),
  );
}

// Columns are bounded (VARCHAR); an oversized target from user input must not turn an audit
// write into an error that hides the action itself.
const clip = (text: string | null, max: number): string | null => {
  if (text === null) return null;
  const clean = sanitizeText(text);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
};

/** Inserts one cyclium_audit_log row on `db`: the caller's transaction, or the pool for refusals. */
export async function insertAuditEntry(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO cyclium_audit_log (user_id, principal, action, target, outcome, detail, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      entry.userId,
      clip(entry.principal, 255),
      clip(entry.action, 128),
      clip(entry.target, 512),
      entry.outcome,
      JSON.stringify(sanitizeValue(entry.detail ?? {})),
      clip(entry.ip, 64),
    ],
  );
}
