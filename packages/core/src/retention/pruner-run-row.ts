import type { RetentionPolicy } from "./retention-policy";

/** Rows one run removed, per family (steps, checkpoints and requests went with their episodes). */
export interface PrunedCounts {
  episodes: number;
  steps: number;
  checkpoints: number;
  triggerRequests: number;
  workClaims: number;
  workflowInstances: number;
  /** Per-minute rollups summed into per-hour rows and deleted. */
  telemetryMinutes: number;
  telemetryHours: number;
  triggerFirings: number;
  recoverySweeps: number;
  prunerRuns: number;
  expiredSessions: number;
  clearedFindings: number;
  auditLog: number;
}

export const EMPTY_PRUNED_COUNTS: PrunedCounts = {
  episodes: 0,
  steps: 0,
  checkpoints: 0,
  triggerRequests: 0,
  workClaims: 0,
  workflowInstances: 0,
  telemetryMinutes: 0,
  telemetryHours: 0,
  triggerFirings: 0,
  recoverySweeps: 0,
  prunerRuns: 0,
  expiredSessions: 0,
  clearedFindings: 0,
  auditLog: 0,
};

export type PrunerTrigger = "scheduled" | "manual" | "cli";

/** One pruner run as cyclium_pruner_runs keeps it (the console's Recovery page lists them). */
export interface PrunerRun {
  id: string;
  node: string;
  trigger: PrunerTrigger;
  requestedBy: string | null;
  /** `interrupted`: the node stopped or lost the claim before every family was done. */
  status: "completed" | "interrupted";
  policies: RetentionPolicy;
  deleted: PrunedCounts;
  totalDeleted: number;
  batches: number;
  durationMs: number;
  insertedAt: Date;
}
