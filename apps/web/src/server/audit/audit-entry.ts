import { insertAuditEntry as insertAuditRow, type AuditOutcome } from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core/console";
import { describePrincipal, type TPrincipal } from "../auth/principal";

export type TAuditOutcome = AuditOutcome;

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

/** Records one audit row for a console principal (core sanitizes and clips it). */
export async function insertAuditEntry(db: Queryable, entry: TAuditEntry): Promise<void> {
  await insertAuditRow(db, {
    userId: entry.principal?.kind === "user" ? entry.principal.id : null,
    principal: describePrincipal(entry.principal),
    action: entry.action,
    target: entry.target,
    outcome: entry.outcome,
    ip: entry.ip,
    detail: {
      ...(entry.principal?.kind === "token" ? { tokenId: entry.principal.id } : {}),
      ...entry.detail,
    },
  });
}
