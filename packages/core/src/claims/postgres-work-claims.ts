import { performance } from "node:perf_hooks";
import type { Queryable } from "../db/index";
import { defaultTelemetry, silentLogger, type Logger, type Telemetry } from "../telemetry/index";
import { acquireClaim } from "./acquire-claim";
import { acquireClaims } from "./acquire-claims";
import { checkFence } from "./check-fence";
import { completeClaim } from "./complete-claim";
import { failClaim } from "./fail-claim";
import { failClaims } from "./fail-claims";
import { reclaimExpiredClaims } from "./reclaim-expired-claims";
import { renewClaim } from "./renew-claim";
import { renewClaims } from "./renew-claims";
import {
  validateClaimInput,
  validateDistinctKeys,
  validateReclaimLimit,
} from "./validate-claim-input";
import type {
  AcquireClaimOptions,
  AcquireClaimResult,
  AcquireManyClaimsOptions,
  ClaimFence,
  CompleteClaimOptions,
  FailClaimOptions,
  FailManyClaimsOptions,
  ReclaimExpiredOptions,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimOptions,
  RenewClaimResult,
  RenewedClaim,
  RenewManyClaimsOptions,
  RenewManyClaimsResult,
  WorkClaims,
} from "./work-claims";

export interface PostgresWorkClaimsOptions {
  db: Queryable;
  /**
   * Where an episode's run holds its lease: `in_row` (default, SPEC section 4) or `claim_rows`
   * (a claim row per run, as the releases before the episode's own lease).
   */
  episodeLeases?: "in_row" | "claim_rows";
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
  readonly episodeLeasesInRow: boolean;
  private readonly db: Queryable;
  private readonly telemetry: Telemetry;
  private readonly logger: Logger;

  constructor(options: PostgresWorkClaimsOptions) {
    this.db = options.db;
    this.telemetry = options.telemetry ?? defaultTelemetry;
    this.logger = options.logger ?? silentLogger;
    this.episodeLeasesInRow = options.episodeLeases !== "claim_rows";
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

  /**
   * `acquire` for a batch of distinct keys in one statement (acquire-claims.ts): the same
   * take-over rules, attempts and `steals`, the same events per key (`duration_ms` is the
   * statement's).
   */
  async acquireMany(
    options: AcquireManyClaimsOptions,
    tx?: Queryable,
  ): Promise<PostgresAcquireClaimResult[]> {
    const { dedupeKeys, owner, leaseSeconds } = options;
    for (const dedupeKey of dedupeKeys) validateClaimInput({ dedupeKey, owner, leaseSeconds });
    validateDistinctKeys(dedupeKeys);
    const started = performance.now();
    const won = await acquireClaims({ dedupeKeys, owner, leaseSeconds }, tx ?? this.db);
    const measurements = { count: 1, duration_ms: performance.now() - started };
    const stolen: { dedupe_key: string; attempt: number }[] = [];
    const results = dedupeKeys.map((dedupeKey): PostgresAcquireClaimResult => {
      const metadata = { dedupe_key: dedupeKey, owner_node: owner };
      const row = won.get(dedupeKey);
      if (!row) {
        this.telemetry.emit("cyclium.work_claims.busy", measurements, metadata);
        return { ok: false, error: "busy" };
      }
      const event = row.stolen ? "cyclium.work_claims.steal" : "cyclium.work_claims.acquired";
      this.telemetry.emit(event, measurements, { ...metadata, attempt: row.attempt });
      if (row.stolen) stolen.push({ dedupe_key: dedupeKey, attempt: row.attempt });
      return {
        ok: true,
        attempt: row.attempt,
        stolen: row.stolen,
        fence: { dedupeKey, owner, attempt: row.attempt },
      };
    });
    if (stolen.length > 0) {
      // One line per batch: recovery steals every claim of a dead node's orphans at once.
      this.logger.warn(
        { owner_node: owner, steals: stolen.length, claims: stolen.slice(0, 20) },
        "work claims stolen after lease ran out",
      );
    }
    return results;
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

  /** One statement for all the claims; the same events per claim as `renew`. */
  async renewMany(options: RenewManyClaimsOptions, tx?: Queryable): Promise<RenewManyClaimsResult> {
    for (const claim of options.claims) {
      validateClaimInput({
        dedupeKey: claim.dedupeKey,
        owner: options.owner,
        leaseSeconds: options.leaseSeconds,
      });
    }
    const started = performance.now();
    let renewed: RenewedClaim[];
    try {
      renewed = await renewClaims(options, tx ?? this.db);
    } catch (error) {
      const measurements = { count: 1, duration_ms: performance.now() - started };
      for (const claim of options.claims) {
        this.telemetry.emit("cyclium.work_claims.renew_failed", measurements, {
          dedupe_key: claim.dedupeKey,
          owner_node: options.owner,
          reason: "error",
        });
      }
      throw error;
    }
    const measurements = { count: 1, duration_ms: performance.now() - started };
    const kept = new Set(renewed.map((claim) => claim.dedupeKey));
    for (const claim of options.claims) {
      const metadata = { dedupe_key: claim.dedupeKey, owner_node: options.owner };
      if (kept.has(claim.dedupeKey)) {
        this.telemetry.emit("cyclium.work_claims.renewed", measurements, metadata);
      } else {
        this.telemetry.emit("cyclium.work_claims.renew_failed", measurements, {
          ...metadata,
          reason: "not_owner",
        });
      }
    }
    return { renewed };
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

  /** `fail` for a batch of claims with distinct keys in one statement (fail-claims.ts). */
  async failMany(options: FailManyClaimsOptions, tx?: Queryable): Promise<ReleaseClaimResult[]> {
    const { owner } = options;
    for (const { dedupeKey } of options.claims) validateClaimInput({ dedupeKey, owner });
    validateDistinctKeys(options.claims.map((claim) => claim.dedupeKey));
    const failed = await failClaims(options, tx ?? this.db);
    return options.claims.map(({ dedupeKey }) =>
      this.released(failed.has(dedupeKey), "cyclium.work_claims.failed", { dedupeKey, owner }),
    );
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
