import { z } from "zod";
import { DEFAULT_DEPLOYMENT } from "../deployment/index";
import type { RunWorkerSettings } from "./run-worker";

const ZBoolean = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const ZPositiveInt = z.coerce.number().int().positive();
const ZText = z.string().trim().min(1).max(255);

/**
 * A worker's configuration: SPEC section 9's variables with their defaults, plus
 * CYCLIUM_DEPLOYMENT (section 13). Apps extend it with their own variables.
 */
export const ZWorkerEnv = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// connection string")
    .optional(),
  CYCLIUM_DEPLOYMENT: z.string().trim().min(1).default(DEFAULT_DEPLOYMENT),
  // Apply pending migrations on start (runWorker's `migrate`); `false` when a deploy step runs
  // `cyclium migrate` instead.
  CYCLIUM_MIGRATE: ZBoolean.default(true),
  CYCLIUM_MODE: z.enum(["full", "trigger_only", "disabled"]).default("full"),
  CYCLIUM_NODE_IDENTITY: ZText.optional(),
  CYCLIUM_STACK_SLUG: ZText.optional(),
  CYCLIUM_ENV: ZText.optional(),
  // `postgres`, `memory` (one process only), `off` (or `none`), or the path or package name of a
  // claim adapter module (docs/work-claims.md), loaded and checked when the worker starts.
  CYCLIUM_WORK_CLAIMS: z.string().trim().min(1).max(1024).default("postgres"),
  CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: ZPositiveInt.max(86_400).default(120),
  // How often lapsed claims are marked `expired` (reclaimExpired), by one node at a time.
  CYCLIUM_WORK_CLAIMS_RECLAIM_INTERVAL_MS: ZPositiveInt.default(60_000),
  CYCLIUM_TRIGGER_POLLER: ZBoolean.default(true),
  CYCLIUM_TRIGGER_POLL_INTERVAL_MS: ZPositiveInt.default(5_000),
  CYCLIUM_TRIGGER_POLL_SOURCE_STACK: ZText.optional(),
  CYCLIUM_TRIGGER_POLL_SOURCE_ENV: ZText.optional(),
  CYCLIUM_RECOVERY_DELAY_MS: z.coerce.number().int().min(0).default(120_000),
  CYCLIUM_RECOVERY_INTERVAL_MS: ZPositiveInt.default(60_000),
  CYCLIUM_STALE_AFTER_MS: ZPositiveInt.default(120_000),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
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

/** runWorker's settings from the environment (everything but the deployment). */
export function workerSettingsFromEnv(env: TWorkerEnv): RunWorkerSettings {
  return {
    databaseUrl: env.DATABASE_URL,
    migrate: env.CYCLIUM_MIGRATE,
    mode: env.CYCLIUM_MODE,
    nodeIdentity: env.CYCLIUM_NODE_IDENTITY,
    stack: env.CYCLIUM_STACK_SLUG ?? null,
    env: env.CYCLIUM_ENV ?? null,
    workClaims: env.CYCLIUM_WORK_CLAIMS,
    leaseSeconds: env.CYCLIUM_WORK_CLAIMS_LEASE_SECONDS,
    claimsExpiry: { intervalMs: env.CYCLIUM_WORK_CLAIMS_RECLAIM_INTERVAL_MS },
    poller: {
      enabled: env.CYCLIUM_TRIGGER_POLLER,
      intervalMs: env.CYCLIUM_TRIGGER_POLL_INTERVAL_MS,
      sourceStack: env.CYCLIUM_TRIGGER_POLL_SOURCE_STACK ?? null,
      sourceEnv: env.CYCLIUM_TRIGGER_POLL_SOURCE_ENV ?? env.CYCLIUM_ENV ?? null,
    },
    recovery: {
      delayMs: env.CYCLIUM_RECOVERY_DELAY_MS,
      intervalMs: env.CYCLIUM_RECOVERY_INTERVAL_MS,
      staleAfterMs: env.CYCLIUM_STALE_AFTER_MS,
    },
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
  };
}
