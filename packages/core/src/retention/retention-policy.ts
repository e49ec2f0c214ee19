/**
 * How long finished history is kept, per table family (SPEC section 14, docs/retention.md). Ages
 * are milliseconds; `null` keeps the family forever. Pure data: the environment is read in
 * config/retention-env.ts, the pruner only receives this.
 */
export interface RetentionPolicy {
  /**
   * Finished (completed, failed, cancelled) episodes by `finished_at`, archived or not, with
   * their steps, checkpoints and trigger requests; finished work claims and finished workflow
   * instances go with them.
   */
  episodes: number | null;
  /** Per-actor ages that replace `episodes` for that actor's episodes. */
  episodesByActor: Readonly<Record<string, number | null>>;
  /** Per-minute telemetry rollups; whole hours are summed into per-hour rollups first. */
  telemetryMinutes: number | null;
  /** Per-hour telemetry rollups. */
  telemetryHours: number | null;
  /** Finished trigger firings (no running workflow instance names them). */
  triggerFirings: number | null;
  /** Recorded recovery sweeps and pruner runs. */
  maintenanceRuns: number | null;
  /** Console sessions, counted from their expiry. */
  expiredSessions: number | null;
  /** Cleared findings, by `cleared_at` (active findings are never pruned). */
  clearedFindings: number | null;
  /** The audit log: its own policy, kept forever unless set. */
  auditLog: number | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The defaults, with the reason for each (docs/retention.md has the long form):
 * - episodes 7 days: a week covers a weekend's incident and its review, and at 50 episodes/s
 *   keeps ~30 M episodes rather than growing by ~130 M a month;
 * - per-minute telemetry 3 days: the console's charts look at hours, not weeks;
 * - per-hour telemetry 90 days: a quarter of trends at 1/60 of the rows;
 * - trigger firings 14 days: two weeks of "did it fire" for weekly schedules;
 * - recovery sweeps and pruner runs 30 days: a month of maintenance history, a few rows a minute;
 * - expired sessions 1 day after expiry: nothing reads them, a day helps an investigation;
 * - cleared findings 30 days: history of a month of raised-and-cleared conditions;
 * - audit log: forever, an operator decides (compliance rules differ).
 */
export const DEFAULT_RETENTION_POLICY: RetentionPolicy = {
  episodes: 7 * DAY,
  episodesByActor: {},
  telemetryMinutes: 3 * DAY,
  telemetryHours: 90 * DAY,
  triggerFirings: 14 * DAY,
  maintenanceRuns: 30 * DAY,
  expiredSessions: 1 * DAY,
  clearedFindings: 30 * DAY,
  auditLog: null,
};

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: HOUR, d: DAY } as const;

export type ParsedRetentionAge = { kind: "age"; ms: number | null } | { kind: "invalid" };

/**
 * `7d`, `12h`, `90m`, `30s`, `500ms`, or `forever` (also `off`, `never`: keep). A bare number is
 * refused: a unit-less `7` is too easy to read as days and mean seconds.
 */
export function parseRetentionAge(text: string): ParsedRetentionAge {
  const value = text.trim().toLowerCase();
  if (value === "forever" || value === "off" || value === "never") return { kind: "age", ms: null };
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(value);
  if (!match) return { kind: "invalid" };
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!Number.isFinite(ms) || ms < 1_000) return { kind: "invalid" };
  return { kind: "age", ms: Math.round(ms) };
}

/** `7d` etc. for display: the largest unit that divides the age; `forever` for null. */
export function formatRetentionAge(ms: number | null): string {
  if (ms === null) return "forever";
  for (const unit of ["d", "h", "m", "s"] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}

export type ParsedActorAges =
  { kind: "ages"; ages: Record<string, number | null> } | { kind: "invalid"; entry: string };

/** `billing=90d,noisy_poller=1h,audit_bot=forever`. */
export function parseActorRetentionAges(text: string): ParsedActorAges {
  const ages: Record<string, number | null> = {};
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const [actor, age, ...rest] = entry.split("=").map((part) => part.trim());
    const parsed = parseRetentionAge(age ?? "");
    if (!actor || rest.length > 0 || parsed.kind === "invalid") return { kind: "invalid", entry };
    ages[actor] = parsed.ms;
  }
  return { kind: "ages", ages };
}

/** The age that applies to one actor's finished episodes. */
export function episodeAgeFor(policy: RetentionPolicy, actorId: string): number | null {
  return Object.hasOwn(policy.episodesByActor, actorId)
    ? (policy.episodesByActor[actorId] ?? null)
    : policy.episodes;
}
