import { z } from "zod";
import {
  readEnvOrExit,
  retentionPolicyFromEnv,
  ZCycliumEnv,
  ZEnvBoolean,
  ZEnvPositiveInt,
  ZEnvText,
} from "../config/index";
import { DEFAULT_TRIGGER_POLL_INTERVAL_MS } from "../deferred/index";
import type {
  RunWorkerOptions,
  RunWorkerSettings,
  WorkerEnvironmentSource,
} from "./run-worker-settings";

/**
 * A worker's configuration: the shared SPEC variables (config/cyclium-env.ts) plus the ones only
 * a worker reads, with the SPEC's defaults (sections 5, 9 and 13). Apps extend it further.
 */
export const ZWorkerEnv = ZCycliumEnv.extend({
  // Apply pending migrations on start (runWorker's `migrate`); `false` when a deploy step runs
  // `cyclium migrate` instead.
  CYCLIUM_MIGRATE: ZEnvBoolean.default(true),
  // Named prepared statements on the worker's pool (runWorker's `preparedStatements`). Unset:
  // on, unless CYCLIUM_LISTEN_DATABASE_URL says DATABASE_URL goes through a pooler.
  CYCLIUM_PREPARED_STATEMENTS: ZEnvBoolean.optional(),
  CYCLIUM_MODE: z.enum(["full", "trigger_only", "disabled"]).default("full"),
  // How often lapsed claims are marked `expired` (reclaimExpired), by one node at a time.
  CYCLIUM_WORK_CLAIMS_RECLAIM_INTERVAL_MS: ZEnvPositiveInt.default(60_000),
  CYCLIUM_TRIGGER_POLLER: ZEnvBoolean.default(true),
  CYCLIUM_TRIGGER_POLL_INTERVAL_MS: ZEnvPositiveInt.default(DEFAULT_TRIGGER_POLL_INTERVAL_MS),
  CYCLIUM_TRIGGER_POLL_SOURCE_STACK: ZEnvText.optional(),
  CYCLIUM_TRIGGER_POLL_SOURCE_ENV: ZEnvText.optional(),
  CYCLIUM_RECOVERY_DELAY_MS: z.coerce.number().int().min(0).default(120_000),
  CYCLIUM_RECOVERY_INTERVAL_MS: ZEnvPositiveInt.default(60_000),
  /**
   * On SIGTERM/SIGINT, how long running episodes may finish their current step before the node
   * aborts them; episodes that cannot finish are handed back to pending for another worker.
   * Keep it below the supervisor's own kill timeout (systemd TimeoutStopSec, Kubernetes
   * terminationGracePeriodSeconds) minus 10 s.
   */
  CYCLIUM_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  /** `/healthz` and `/metrics`; 0 picks a free port. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
});

export type TWorkerEnv = z.infer<typeof ZWorkerEnv>;

/**
 * Parses the environment; on a bad value prints one line per offending variable, naming it,
 * and exits with code 2 (a configuration error, distinct from a crash).
 */
export function readWorkerEnv(
  source: Record<string, string | undefined> = process.env,
): TWorkerEnv {
  return readEnvOrExit(ZWorkerEnv, source);
}

/** runWorker's settings from the environment (everything but the deployment). */
export function workerSettingsFromEnv(env: TWorkerEnv): RunWorkerSettings {
  return {
    databaseUrl: env.DATABASE_URL,
    listenDatabaseUrl: env.CYCLIUM_LISTEN_DATABASE_URL,
    migrate: env.CYCLIUM_MIGRATE,
    preparedStatements: env.CYCLIUM_PREPARED_STATEMENTS,
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
      // Unset: runWorker takes the node's env, explicit or from CYCLIUM_ENV.
      sourceEnv: env.CYCLIUM_TRIGGER_POLL_SOURCE_ENV,
    },
    recovery: {
      delayMs: env.CYCLIUM_RECOVERY_DELAY_MS,
      intervalMs: env.CYCLIUM_RECOVERY_INTERVAL_MS,
      staleAfterMs: env.CYCLIUM_STALE_AFTER_MS,
    },
    pruner: env.CYCLIUM_PRUNER && {
      policy: retentionPolicyFromEnv(env),
      intervalMs: env.CYCLIUM_PRUNER_INTERVAL_MS,
      batchSize: env.CYCLIUM_PRUNER_BATCH_SIZE,
    },
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    shutdownGraceMs: env.CYCLIUM_SHUTDOWN_GRACE_MS,
  };
}

/**
 * runWorker's settings: each explicit option, else its variable, else the SPEC's default (applied
 * by runWorker). An option left `undefined` counts as not given, so `{ port: undefined }` still
 * reads PORT. The nested `poller` and `recovery` merge key by key; `false` switches a part off
 * whatever the environment says. A bad variable exits with code 2 naming it, as readWorkerEnv.
 */
export function resolveWorkerSettings(
  options: RunWorkerOptions,
  source: WorkerEnvironmentSource = process.env,
): RunWorkerSettings {
  if (source === false) return options;
  const fromEnv = workerSettingsFromEnv(readWorkerEnv(source));
  const given = definedOnly(options);
  return {
    ...fromEnv,
    ...given,
    poller: { ...fromEnv.poller, ...definedOnly(options.poller ?? {}) },
    recovery: mergeNested(fromEnv.recovery, options.recovery),
    claimsExpiry: mergeNested(fromEnv.claimsExpiry, options.claimsExpiry),
    pruner: mergeNested(fromEnv.pruner, options.pruner),
  };
}

/** A nested part: `false` given wins, two objects merge key by key, else whichever is set. */
function mergeNested<T extends object>(
  fromEnv: T | false | undefined,
  given: T | false | undefined,
): T | false | undefined {
  if (given === false || given === undefined) return given ?? fromEnv;
  if (fromEnv === false || fromEnv === undefined) return given;
  return { ...fromEnv, ...definedOnly(given) };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
