import { z } from "zod";

const ZBoolean = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const ZPositiveInt = z.coerce.number().int().positive();

/** The worker's configuration: SPEC section 9's variables, validated once at start-up. */
export const ZWorkerEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  CYCLIUM_MODE: z.enum(["full", "trigger_only", "disabled"]).default("full"),
  CYCLIUM_NODE_IDENTITY: z.string().trim().min(1).max(255).optional(),
  CYCLIUM_STACK_SLUG: z.string().trim().min(1).max(255).optional(),
  CYCLIUM_ENV: z.string().trim().min(1).max(255).optional(),
  CYCLIUM_WORK_CLAIMS: z.enum(["postgres", "none"]).default("postgres"),
  CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: ZPositiveInt.max(86_400).default(120),
  CYCLIUM_TRIGGER_POLLER: ZBoolean.default(true),
  CYCLIUM_TRIGGER_POLL_INTERVAL_MS: ZPositiveInt.default(5_000),
  CYCLIUM_TRIGGER_POLL_SOURCE_STACK: z.string().trim().min(1).max(255).optional(),
  CYCLIUM_TRIGGER_POLL_SOURCE_ENV: z.string().trim().min(1).max(255).optional(),
  CYCLIUM_RECOVERY_DELAY_MS: z.coerce.number().int().min(0).default(120_000),
  CYCLIUM_RECOVERY_INTERVAL_MS: ZPositiveInt.default(60_000),
  CYCLIUM_STALE_AFTER_MS: ZPositiveInt.default(120_000),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
  // The demo advisor's schedule (resource_advisor); test clusters move it out of the way.
  CYCLIUM_DEMO_ADVISOR_CRON: z.string().trim().min(1).max(255).default("*/5 * * * *"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/**
 * Parses the environment; on a bad value prints one line per offending variable, naming it,
 * and exits with code 2 (a configuration error, distinct from a crash).
 */
export function readWorkerEnv(source: NodeJS.ProcessEnv = process.env): TWorkerEnv {
  // An empty variable means "unset", as in most deployment tools.
  const present = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = ZWorkerEnv.safeParse(present);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const name = issue.path.join(".");
    console.error(
      `Invalid environment variable ${name}=${JSON.stringify(source[name] ?? "")}: ${issue.message}`,
    );
  }
  process.exit(2);
}
