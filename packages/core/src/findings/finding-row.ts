import type { FindingModel } from "@cyclium/db/models";
import type { FieldsOf, Narrow, RowOf } from "../db/row-of";
export const FINDING_STATUSES = ["active", "cleared"] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export type Finding = Narrow<
  FieldsOf<FindingModel>,
  { status: FindingStatus; data: Record<string, unknown> }
>;

export type FindingRow = Narrow<
  RowOf<FindingModel>,
  { status: FindingStatus; data: Record<string, unknown> }
>;

const COLUMNS = [
  "id",
  "finding_key",
  "class",
  "severity",
  "subject",
  "summary",
  "data",
  "status",
  "env",
  "episode_id",
  "actor_id",
  "raised_count",
  "expires_at",
  "cleared_at",
  "inserted_at",
  "updated_at",
];

/** The column list for RETURNING / SELECT, qualified with `alias` when given. */
export function findingColumns(alias?: string): string {
  return COLUMNS.map((column) => (alias ? `${alias}.${column}` : column)).join(", ");
}

export function toFinding(row: FindingRow): Finding {
  return {
    id: row.id,
    findingKey: row.finding_key,
    class: row.class,
    severity: row.severity,
    subject: row.subject,
    summary: row.summary,
    data: row.data,
    status: row.status,
    env: row.env,
    episodeId: row.episode_id,
    actorId: row.actor_id,
    raisedCount: row.raised_count,
    expiresAt: row.expires_at,
    clearedAt: row.cleared_at,
    insertedAt: row.inserted_at,
    updatedAt: row.updated_at,
  };
}
