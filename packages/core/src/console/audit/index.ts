// The console's audit log (SPEC section 10): one row per action, refusal or failure, written in
// the action's own transaction, and the keyset list the Audit page reads.
export { AUDIT_OUTCOMES, type AuditOutcome } from "./audit-outcome";
export {
  insertAuditEntry,
  sanitizeText,
  sanitizeValue,
  type AuditEntry,
} from "./insert-audit-entry";
export { listAuditEntries, type AuditFilters, type AuditItem } from "./list-audit-entries";
