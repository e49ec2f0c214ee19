import { performance } from "node:perf_hooks";
import type { Queryable } from "../db/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import { acquireClaim } from "./acquire-claim";
import { checkFence } from "./check-fence";
import { completeClaim } from "./complete-claim";
import { failClaim } from "./fail-claim";
import { reclaimExpiredClaims } from "./reclaim-expired-claims";
import { renewClaim } from "./renew-claim";
import { validateClaimInput, validateReclaimLimit } from "./validate-claim-input";
import type {
  AcquireClaimOptions,
  AcquireClaimResult,
  ClaimFence,
  CompleteClaimOptions,
  FailClaimOptions,
  ReclaimExpiredOptions,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimOptions,
  RenewClaimResult,
  WorkClaims,
} from "./work-claims";

export interface PostgresWorkClaimsOptions {
  db: Queryable;
  telemetry?: Telemetry;
  logger?: Logger;
}

/** A Postgres acquire also hands out the fence the runtime's SQL writes present. */
export type PostgresAcquireClaimResult =
  | (Extract<AcquireClaimResult, { ok: true }> & { fence: ClaimFence })
  | Extract<AcquireClaimResult, { ok: false }>;

const NOT_OWNER = { ok: false, error: "not_owner" } as const;

/**
 * The default WorkClaims: rows in `cyclium_work_claims`, one statement per operation. Because the
 * rows sit next to the episodes, the runtime fences its writes inside its own statements
 * (`usesSqlFence`) instead of asking `holds` first.
 */
export class PostgresWorkClaims implements WorkClaims {
  readonly usesSqlFence = true;
  private readonly db: Queryable;
  private readonly telemetry: Telemetry;
  private readonly logger: Logger;

  constructor(options: PostgresWorkClaimsOptions) {
    this.db = options.db;
    this.telemetry = options.telemetry ?? defaultTelemetry;
    this.logger = options.logger ?? silentLogger;
  }

  async acquire(options: AcquireClaimOptions, tx?: Queryable): Promise<PostgresAcquireClaimResult> {
    validateClaimInput(options);
    const started = performance.now();
    const row = await acquireClaim(options, tx ?? this.db);
    const measurements = { count: 1, duration_ms: performance.now() - started };
    const metadata = { dedupe_key: options.dedupeKey, owner_node: options.owner };
    if (!row) {
      this.telemetry.emit("cyclium.work_claims.busy", measurements, metadata);
      return { ok: false, error: "busy" };
    }
    const event = row.stolen ? "cyclium.work_claims.steal" : "cyclium.work_claims.acquired";
    this.telemetry.emit(event, measurements, { ...metadata, attempt: row.attempt });
    if (row.stolen) {
      // Normal operation never steals: a steal means a node died or its leases are too short.
      this.logger.warn(
        { ...metadata, attempt: row.attempt },
        "work claim stolen after lease ran out",
      );
    }
    return {
      ok: true,
      attempt: row.attempt,
      stolen: row.stolen,
      fence: { dedupeKey: options.dedupeKey, owner: options.owner, attempt: row.attempt },
    };
  }

  async renew(options: RenewClaimOptions, tx?: Queryable): Promise<RenewClaimResult> {
    validateClaimInput(options);
    const started = performance.now();
    const metadata = { dedupe_key: options.dedupeKey, owner_node: options.owner };
    let renewed: boolean;
    try {
      renewed = await renewClaim(options, tx ?? this.db);
    } catch (error) {
      this.telemetry.emit(
        "cyclium.work_claims.renew_failed",
        { count: 1, duration_ms: performance.now() - started },
        { ...metadata, reason: "error" },
      );
      throw error;
    }
    const measurements = { count: 1, duration_ms: performance.now() - started };
    if (!renewed) {
      this.telemetry.emit("cyclium.work_claims.renew_failed", measurements, {
        ...metadata,
        reason: "not_owner",
      });
      return NOT_OWNER;
    }
    this.telemetry.emit("cyclium.work_claims.renewed", measurements, metadata);
    return { ok: true };
  }

  async complete(options: CompleteClaimOptions, tx?: Queryable): Promise<ReleaseClaimResult> {
    validateClaimInput(options);
    const done = await completeClaim(options, tx ?? this.db);
    return this.released(done, "cyclium.work_claims.completed", options);
  }

  async fail(options: FailClaimOptions, tx?: Queryable): Promise<ReleaseClaimResult> {
    validateClaimInput(options);
    const failed = await failClaim(options, tx ?? this.db);
    return this.released(failed, "cyclium.work_claims.failed", options);
  }

  /** Telemetry (`cyclium.work_claims.expired`) is the scheduled sweep's, for every adapter. */
  async reclaimExpired(
    options: ReclaimExpiredOptions,
    tx?: Queryable,
  ): Promise<ReclaimExpiredResult> {
    validateReclaimLimit(options.limit);
    return { expiredKeys: await reclaimExpiredClaims(options, tx ?? this.db) };
  }

  /** One indexed read; the runtime's own writes check the same row inside their statements. */
  holds(fence: ClaimFence, tx?: Queryable): Promise<boolean> {
    return checkFence(fence, tx ?? this.db);
  }

  private released(
    ok: boolean,
    event: "cyclium.work_claims.completed" | "cyclium.work_claims.failed",
    options: CompleteClaimOptions,
  ): ReleaseClaimResult {
    const metadata = { dedupe_key: options.dedupeKey, owner_node: options.owner };
    if (!ok) {
      this.logger.warn(metadata, "claim release refused: no longer the owner");
      return NOT_OWNER;
    }
    this.telemetry.emit(event, { count: 1 }, metadata);
    return { ok: true };
  }
}
