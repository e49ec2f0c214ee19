import { z } from "zod";
import {
  DEFAULT_PRUNER_BATCH_SIZE,
  DEFAULT_PRUNER_INTERVAL_MS,
  DEFAULT_RETENTION_POLICY,
  parseActorRetentionAges,
  parseRetentionAge,
  type RetentionPolicy,
} from "../retention/index";

/** `7d`, `12h`, `90m`, `30s`, or `forever` (docs/retention.md); milliseconds, null = keep. */
export const ZRetentionAge = z.string().transform((text, ctx): number | null => {
  const parsed = parseRetentionAge(text);
  if (parsed.kind === "age") return parsed.ms;
  ctx.addIssue({
    code: "custom",
    message: "must be an age such as 7d, 12h, 90m or 30s (at least 1s), or forever",
  });
  return z.NEVER;
});

/** `billing=90d,noisy_poller=1h`: per-actor ages for finished episodes. */
export const ZActorRetentionAges = z
  .string()
  .transform((text, ctx): Record<string, number | null> => {
    const parsed = parseActorRetentionAges(text);
    if (parsed.kind === "ages") return parsed.ages;
    ctx.addIssue({
      code: "custom",
      message: `"${parsed.entry}" is not actor=age (e.g. billing=90d,noisy_poller=1h)`,
    });
    return z.NEVER;
  });

/**
 * Retention and the pruner (SPEC section 14). Every process that prunes reads the same variables
 * (a worker's timer, `cyclium prune`, the console's "Prune now"), so they are part of the shared
 * schema. Unset ages take DEFAULT_RETENTION_POLICY, whose reasons are in retention-policy.ts.
 */
export const ZRetentionEnv = z.object({
  /** The pruner on workers (on unless `false`, like recovery). */
  CYCLIUM_PRUNER: z.stringbool().default(true),
  CYCLIUM_PRUNER_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(DEFAULT_PRUNER_INTERVAL_MS),
  /** Rows (episodes, for the episode family) per delete statement. */
  CYCLIUM_PRUNER_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_PRUNER_BATCH_SIZE),
  CYCLIUM_RETENTION_EPISODES: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_EPISODES_BY_ACTOR: ZActorRetentionAges.optional(),
  CYCLIUM_RETENTION_TELEMETRY: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_TELEMETRY_HOURLY: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_TRIGGER_FIRINGS: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_MAINTENANCE_RUNS: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_EXPIRED_SESSIONS: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_CLEARED_FINDINGS: ZRetentionAge.optional(),
  CYCLIUM_RETENTION_AUDIT_LOG: ZRetentionAge.optional(),
});

export type TRetentionEnv = z.infer<typeof ZRetentionEnv>;

/** The policy in force: each variable set wins over its default. */
export function retentionPolicyFromEnv(env: TRetentionEnv): RetentionPolicy {
  const pick = (value: number | null | undefined, fallback: number | null) =>
    value === undefined ? fallback : value;
  const d = DEFAULT_RETENTION_POLICY;
  return {
    episodes: pick(env.CYCLIUM_RETENTION_EPISODES, d.episodes),
    episodesByActor: env.CYCLIUM_RETENTION_EPISODES_BY_ACTOR ?? d.episodesByActor,
    telemetryMinutes: pick(env.CYCLIUM_RETENTION_TELEMETRY, d.telemetryMinutes),
    telemetryHours: pick(env.CYCLIUM_RETENTION_TELEMETRY_HOURLY, d.telemetryHours),
    triggerFirings: pick(env.CYCLIUM_RETENTION_TRIGGER_FIRINGS, d.triggerFirings),
    maintenanceRuns: pick(env.CYCLIUM_RETENTION_MAINTENANCE_RUNS, d.maintenanceRuns),
    expiredSessions: pick(env.CYCLIUM_RETENTION_EXPIRED_SESSIONS, d.expiredSessions),
    clearedFindings: pick(env.CYCLIUM_RETENTION_CLEARED_FINDINGS, d.clearedFindings),
    auditLog: pick(env.CYCLIUM_RETENTION_AUDIT_LOG, d.auditLog),
  };
}
