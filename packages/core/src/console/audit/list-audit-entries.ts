import type { Queryable } from "../../db/index";
import { keysetWalk, type KeysetPage, type KeysetPageOptions } from "../../paging/index";
import { SqlParams } from "../../scope/index";
import type { AuditOutcome } from "./audit-outcome";
import type { AuditLogModel } from "@cyclium/db/models";
import type { RowOf } from "../../db/row-of";

export interface AuditItem {
  id: string;
  principal: string;
  action: string;
  target: string | null;
  outcome: AuditOutcome;
  detail: Record<string, unknown>;
  ip: string | null;
  insertedAt: Date;
}

export interface AuditFilters {
  /** Prefix match: `triggers.` shows every trigger action. */
  action?: string | undefined;
  principal?: string | undefined;
  outcome?: AuditOutcome | undefined;
  /** Substring of the target. */
  target?: string | undefined;
}

type AuditRow = Pick<
  RowOf<AuditLogModel>,
  "id" | "principal" | "action" | "target" | "ip" | "inserted_at"
> & {
  /** Narrowed from VARCHAR by the CHECK constraint. */
  outcome: AuditOutcome;
  /** Narrowed from JSON: audit details are always written as objects. */
  detail: Record<string, unknown>;
  cursor_at: string;
};

/**
 * The audit log newest first (cyclium_audit_log_inserted_at_id_idx). The log belongs to the whole
 * console, not to an env: sign-ins and user changes have none, and an operator acting in env
 * `rc` is still the same operator.
 */
export async function listAuditEntries(
  options: KeysetPageOptions & { db: Queryable; filters: AuditFilters },
): Promise<KeysetPage<AuditItem>> {
  const { filters } = options;
  const params = new SqlParams();
  const walk = keysetWalk(options, params, { at: "inserted_at", id: "id", idType: "bigint" });
  const where: string[] = ["TRUE"];
  if (filters.action !== undefined) {
    where.push(`action LIKE ${params.add(`${escapeLike(filters.action)}%`)}`);
  }
  if (filters.principal !== undefined) where.push(`principal = ${params.add(filters.principal)}`);
  if (filters.outcome !== undefined) where.push(`outcome = ${params.add(filters.outcome)}`);
  if (filters.target !== undefined) {
    where.push(`target LIKE ${params.add(`%${escapeLike(filters.target)}%`)}`);
  }
  if (walk.after !== null) where.push(walk.after);
  const { rows } = await options.db.query<AuditRow>(
    `SELECT id::text, principal, action, target, outcome, detail, ip, inserted_at,
            ${walk.cursorAt} AS cursor_at
       FROM cyclium_audit_log WHERE ${where.join(" AND ")}
      ORDER BY inserted_at ${walk.order}, id ${walk.order} LIMIT ${walk.limit}`,
    params.values,
  );
  return walk.page(
    rows.map((row) => ({
      cursorAt: row.cursor_at,
      item: {
        id: row.id,
        principal: row.principal,
        action: row.action,
        target: row.target,
        outcome: row.outcome,
        detail: row.detail,
        ip: row.ip,
        insertedAt: row.inserted_at,
      },
    })),
  );
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
