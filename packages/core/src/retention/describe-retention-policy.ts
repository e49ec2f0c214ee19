import { formatRetentionAge, type RetentionPolicy } from "./retention-policy";

/** One line of the retention in force, as the console's Recovery page lists it. */
export interface RetentionPolicyLine {
  family: string;
  /** The variable that sets it. */
  variable: string;
  /** `7d`, `forever`... */
  age: string;
  what: string;
}

/** The policy as display lines, per-actor ages after the family they override. */
export function describeRetentionPolicy(policy: RetentionPolicy): RetentionPolicyLine[] {
  const line = (family: string, variable: string, ms: number | null, what: string) => ({
    family,
    variable,
    age: formatRetentionAge(ms),
    what,
  });
  return [
    line(
      "episodes",
      "CYCLIUM_RETENTION_EPISODES",
      policy.episodes,
      "finished episodes with steps, checkpoints, trigger requests; finished claims and workflow instances",
    ),
    ...Object.entries(policy.episodesByActor).map(([actor, ms]) =>
      line(`episodes of ${actor}`, "CYCLIUM_RETENTION_EPISODES_BY_ACTOR", ms, "per-actor age"),
    ),
    line(
      "telemetry",
      "CYCLIUM_RETENTION_TELEMETRY",
      policy.telemetryMinutes,
      "per-minute rollups, then summed per hour",
    ),
    line(
      "telemetry (hourly)",
      "CYCLIUM_RETENTION_TELEMETRY_HOURLY",
      policy.telemetryHours,
      "per-hour rollups",
    ),
    line(
      "trigger firings",
      "CYCLIUM_RETENTION_TRIGGER_FIRINGS",
      policy.triggerFirings,
      "finished firings",
    ),
    line(
      "maintenance runs",
      "CYCLIUM_RETENTION_MAINTENANCE_RUNS",
      policy.maintenanceRuns,
      "recovery sweeps and pruner runs",
    ),
    line("sessions", "CYCLIUM_RETENTION_EXPIRED_SESSIONS", policy.expiredSessions, "after expiry"),
    line(
      "findings",
      "CYCLIUM_RETENTION_CLEARED_FINDINGS",
      policy.clearedFindings,
      "cleared findings (active ones are kept)",
    ),
    line("audit log", "CYCLIUM_RETENTION_AUDIT_LOG", policy.auditLog, "its own policy"),
  ];
}
