import type { Queryable } from "@cyclium/core/db";
import { describePrincipal, type TPrincipal } from "../auth/principal";

export type TAuditOutcome = "ok" | "refused" | "error";

export interface TAuditEntry {
  principal: TPrincipal | null;
  /** What was attempted, e.g. `triggers.fire`, `admin.users.create`, `auth.sign_in`. */
  action: string;
  /** What it was attempted on, e.g. `resource_monitor/check`; null when there is no single target. */
  target: string | null;
  outcome: TAuditOutcome;
  ip: string | null;
  detail?: Record<string, unknown>;
}

// Columns are bounded (VARCHAR); an oversized target from user input must not turn an audit
// write into an error that hides the action itself.
const clip = (text: string | null, max: number): string | null =>
  text === null ? null : text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** Inserts one cyclium_audit_log row on `db`: the caller's transaction, or the pool for refusals. */
export async function insertAuditEntry(db: Queryable, entry: TAuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO cyclium_audit_log (user_id, principal, action, target, outcome, detail, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      entry.principal?.kind === "user" ? entry.principal.id : null,
      clip(describePrincipal(entry.principal), 255),
      clip(entry.action, 128),
      clip(entry.target, 512),
      entry.outcome,
      JSON.stringify({
        ...(entry.principal?.kind === "token" ? { tokenId: entry.principal.id } : {}),
        ...entry.detail,
      }),
      clip(entry.ip, 64),
    ],
  );
}
