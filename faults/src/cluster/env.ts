import { ZDatabaseUrl } from "@cyclium/core/worker";
import { z } from "zod";

const ZPositiveInt = z.coerce.number().int().positive();

/**
 * The configuration of one process of the suite's cluster, set by the orchestrator. The Cyclium
 * settings keep their SPEC names (section 9) so that a worker here is configured like a deployed
 * one; the FAULTS_ ones are the suite's own.
 */
export const ZNodeEnv = z.object({
  DATABASE_URL: ZDatabaseUrl,
  FAULTS_ROLE: z.enum(["worker", "writer"]),
  CYCLIUM_NODE_IDENTITY: z.string().min(1).max(255),
  FAULTS_HISTORY_FILE: z.string().min(1),
  FAULTS_LOG_FILE: z.string().min(1),
  CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: ZPositiveInt,
  CYCLIUM_TRIGGER_POLL_INTERVAL_MS: ZPositiveInt,
  CYCLIUM_RECOVERY_DELAY_MS: z.coerce.number().int().min(0),
  CYCLIUM_RECOVERY_INTERVAL_MS: ZPositiveInt,
  CYCLIUM_STALE_AFTER_MS: ZPositiveInt,
});

export type TNodeEnv = z.infer<typeof ZNodeEnv>;

/** Parses this process's environment; exits 2 naming the bad variable (as the apps do). */
export function readNodeEnv(source: NodeJS.ProcessEnv = process.env): TNodeEnv {
  const parsed = ZNodeEnv.safeParse(source);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    console.error(`Invalid environment variable ${issue.path.join(".")}: ${issue.message}`);
  }
  process.exit(2);
}

/** Scenario 7's clock offset for the `Date` preload; 0 (no skew) when unset. */
export function readClockOffsetMs(source: NodeJS.ProcessEnv = process.env): number {
  const offset = Number(source.FAULTS_CLOCK_OFFSET_MS ?? 0);
  return Number.isFinite(offset) ? offset : 0;
}
