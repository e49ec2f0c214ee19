import { z } from "zod";
import { DEFAULT_DEPLOYMENT } from "../deployment/index";
import { redactSecrets } from "../errors/index";
import { ZRetentionEnv } from "./retention-env";
import { ZTracingEnv } from "./tracing-env";

/**
 * One spelling of every SPEC variable (sections 9 and 13) that more than one process reads, so
 * that the same value means the same thing in the worker, the console, the CLI and the bench.
 * Each app composes `ZCycliumEnv.extend({...})` with its own variables; values arrive as strings,
 * and an empty variable means "unset" (see `withoutEmptyValues`).
 */

/**
 * PostgreSQL's URL schemes; unset means the embedded PostgreSQL under .data/ (SPEC section 11).
 * Defined here rather than taken from @cyclium/db: the console bundles this module, and the
 * database package's entry point brings the embedded PostgreSQL's binaries with it. (The
 * database package's own CLI, which sits below core, spells the same rule in packages/db/src/env.ts.)
 */
export const ZDatabaseUrl = z
  .string()
  .trim()
  .regex(
    /^postgres(ql)?:\/\//,
    "must be a PostgreSQL connection string, postgres://user:password@host:5432/database",
  );

/** `true/false`, `1/0`, `yes/no`, `on/off` (zod's stringbool). */
export const ZEnvBoolean = z.stringbool();

export const ZEnvPositiveInt = z.coerce.number().int().positive();

/** A name: identities, stack slugs, envs. */
export const ZEnvText = z.string().trim().min(1).max(255);

export const ZCycliumEnv = z.object({
  DATABASE_URL: ZDatabaseUrl.optional(),
  /**
   * A direct connection (never through a transaction-mode pooler such as PgBouncer) for what
   * needs a session of its own: the one LISTEN connection of a node, and the migrator's session
   * advisory lock. Unset: DATABASE_URL (docs/pgbouncer.md).
   */
  CYCLIUM_LISTEN_DATABASE_URL: ZDatabaseUrl.optional(),
  /** The deployment module every process loads (SPEC section 13). */
  CYCLIUM_DEPLOYMENT: z.string().trim().min(1).default(DEFAULT_DEPLOYMENT),
  CYCLIUM_NODE_IDENTITY: ZEnvText.optional(),
  CYCLIUM_STACK_SLUG: ZEnvText.optional(),
  CYCLIUM_ENV: ZEnvText.optional(),
  /**
   * `postgres`, `postgres-claim-rows` (a claim row per episode run, as before the episode's own
   * lease), `memory` (one process only), `off` (or `none`), or the path or package name of a
   * claim adapter module (docs/work-claims.md), loaded and checked when the node starts.
   */
  CYCLIUM_WORK_CLAIMS: z.string().trim().min(1).max(1024).default("postgres"),
  CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: ZEnvPositiveInt.max(86_400).default(120),
  /** A node whose heartbeat is older than this is gone (recovery, console, queue adoption). */
  CYCLIUM_STALE_AFTER_MS: ZEnvPositiveInt.default(120_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Retention and the pruner (SPEC section 14): the worker's timer, `cyclium prune` and the
  // console's "Prune now" apply the same policy.
  ...ZRetentionEnv.shape,
  // OpenTelemetry traces (docs/tracing.md): the standard variables, off when unset.
  ...ZTracingEnv.shape,
});

export type TCycliumEnv = z.infer<typeof ZCycliumEnv>;

/** The environment with empty variables dropped: `CYCLIUM_ENV=` means unset, as in most tools. */
export function withoutEmptyValues(
  source: Record<string, string | undefined>,
): Record<string, string> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== "") present[name] = value;
  }
  return present;
}

/** One line per offending variable, naming it and the value given (any password hidden). */
export function describeEnvIssues(
  error: z.ZodError,
  source: Record<string, string | undefined>,
): string[] {
  return error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    const given = source[name];
    const value = given === undefined ? "" : `=${JSON.stringify(redactSecrets(given))}`;
    return `Invalid environment variable ${name}${value}: ${issue.message}`;
  });
}

/**
 * Parses `source` with `schema` (ZCycliumEnv or an extension of it); on a bad value prints one
 * line per offending variable and exits with code 2 (a configuration error, not a crash).
 */
export function readEnvOrExit<S extends z.ZodType>(
  schema: S,
  source: Record<string, string | undefined>,
): z.infer<S> {
  const parsed = schema.safeParse(withoutEmptyValues(source));
  if (parsed.success) return parsed.data;
  for (const line of describeEnvIssues(parsed.error, source)) console.error(line);
  process.exit(2);
}
