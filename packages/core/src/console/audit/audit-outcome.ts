/** `cyclium_audit_log.outcome`: done, refused before it ran, or failed while running. */
export const AUDIT_OUTCOMES = ["ok", "refused", "error"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
