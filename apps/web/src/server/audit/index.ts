export { audited, recordRefusal, type TAuditContext, type TAuditedAction } from "./audited";
export type { TRefusalReason } from "./audited";
export { insertAuditEntry, type TAuditEntry, type TAuditOutcome } from "./audit-entry";
export { auditedBulk } from "./audited-bulk";
