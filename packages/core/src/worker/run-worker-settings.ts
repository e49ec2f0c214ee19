import type { Level } from "pino";
import type { Deployment } from "../deployment/index";
import type { FindingsExpiryExtensionOptions } from "../findings/index";
import type { Mode } from "../modes/index";
import type {
  ClaimsExpiryExtensionOptions,
  NodeExtension,
  RecoveryExtensionOptions,
} from "../nodes/index";
import type { PrunerExtensionOptions } from "../retention/index";

/** Where runWorker reads its variables: the process's environment, another map, or none. */
export type WorkerEnvironmentSource = Record<string, string | undefined> | false;

/** Everything but the deployment; each has the SPEC's default (section 9). */
export interface RunWorkerSettings {
  /** Unset: embedded PostgreSQL under .data/ (SPEC section 11). */
  databaseUrl?: string | undefined;
  /**
   * CYCLIUM_LISTEN_DATABASE_URL: a direct connection for the node's LISTEN and the migrator's
   * session advisory lock, when `databaseUrl` goes through a transaction-mode pooler
   * (docs/pgbouncer.md). Default: `databaseUrl`.
   */
  listenDatabaseUrl?: string | undefined;
  /**
   * Apply pending migrations (those shipped in @cyclium/db) before starting (default on). Under
   * the migrator's advisory lock, so workers starting together apply each migration once;
   * `false` when migrations run as a separate deploy step (`cyclium migrate`).
   */
  migrate?: boolean | undefined;
  /**
   * CYCLIUM_PREPARED_STATEMENTS: send a statement the worker keeps running as a named prepared
   * statement, parsed and planned once per connection (about a fifth less PostgreSQL CPU per
   * drained item, docs/benchmarks.md). Default: on, unless `listenDatabaseUrl` differs from
   * `databaseUrl`, which means a pooler; PgBouncer keeps named statements only from 1.21 with
   * `max_prepared_statements` set (docs/pgbouncer.md).
   */
  preparedStatements?: boolean | undefined;
  mode?: Mode | undefined;
  /**
   * SPEC section 8: a static identity, a resolver (called once at start-up, may be async), or
   * unset for a random one stable for the process's lifetime.
   */
  nodeIdentity?: string | (() => string | Promise<string>) | undefined;
  stack?: string | null | undefined;
  env?: string | null | undefined;
  /** CYCLIUM_WORK_CLAIMS: `postgres` (default), `memory`, `off`, or an adapter module. */
  workClaims?: string | undefined;
  leaseSeconds?: number | undefined;
  poller?:
    | {
        enabled?: boolean | undefined;
        intervalMs?: number | undefined;
        sourceStack?: string | null | undefined;
        /** Defaults to the node's env. */
        sourceEnv?: string | null | undefined;
      }
    | undefined;
  /** Sweep + reconcile (SPEC section 5): on unless `false`; defaults 120 s delay, 60 s interval. */
  recovery?: false | Partial<Omit<RecoveryExtensionOptions, "workflows">> | undefined;
  /** The deployment's workflow engine (default on). */
  workflows?: boolean | undefined;
  /** The deployment's cron and poll triggers (default on; needs the workflow engine). */
  triggers?: boolean | undefined;
  findingsExpiry?: false | FindingsExpiryExtensionOptions | undefined;
  claimsExpiry?: false | ClaimsExpiryExtensionOptions | undefined;
  /**
   * The pruner (SPEC section 14): on unless `false`; the default retention policy, a run a
   * minute, once per cluster at a time (docs/retention.md).
   */
  pruner?: false | PrunerExtensionOptions | undefined;
  /** Started after the built-in ones. */
  extensions?: readonly NodeExtension[] | undefined;
  /** `/healthz` and `/metrics` (default 4000; 0 picks a free port). */
  port?: number | undefined;
  logLevel?: Level | "silent" | undefined;
  /** On SIGTERM/SIGINT, how long running episodes may finish their current step (30 s). */
  shutdownGraceMs?: number | undefined;
  /** Dedupe jitter bound (SPEC section 3); tests set 0. */
  jitterMs?: number | undefined;
  /** Recorded in cyclium_nodes.version. */
  version?: string | undefined;
}

export interface RunWorkerOptions extends RunWorkerSettings {
  deployment: Deployment;
  /**
   * Where settings not given as options come from: `DATABASE_URL`, `PORT`, `LOG_LEVEL` and the
   * `CYCLIUM_*` variables (docs/contract.md), validated (a bad one exits with code 2 naming it).
   * Default: the process's environment; `false` reads none (the SPEC's defaults only).
   * Precedence: an explicit option, then its variable, then the default.
   */
  environment?: WorkerEnvironmentSource | undefined;
}
