import { performance } from "node:perf_hooks";
import type { Telemetry, TelemetryEventName } from "../telemetry/index";
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
  ClaimState,
  CompleteClaimOptions,
  FailClaimOptions,
  FailManyClaimsOptions,
  ReclaimExpiredOptions,
  ReclaimExpiredResult,
  ReleaseClaimResult,
  RenewClaimOptions,
  RenewClaimResult,
  WorkClaims,
} from "./work-claims";

export interface MemoryClaim {
  state: ClaimState;
  owner: string;
  /** On this instance's clock (`now()`), in ms. */
  leaseUntil: number;
  attempt: number;
  steals: number;
  errorDetail: string | null;
}

export interface MemoryWorkClaimsOptions {
  /** The clock leases are measured on; monotonic by default. Tests may drive it by hand. */
  now?: () => number;
  /** Emits the same events as the Postgres implementation when given. */
  telemetry?: Telemetry;
}

const NOT_OWNER = { ok: false, error: "not_owner" } as const;

/**
 * Runs `body` now (each call is atomic on the one thread) and answers as a promise, so bad input
 * rejects as it does with every other adapter instead of throwing at the call.
 */
function settle<T>(body: () => T): Promise<T> {
  try {
    return Promise.resolve(body());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * An in-memory WorkClaims: for unit tests of code that uses claims, and for a single process
 * (`CYCLIUM_WORK_CLAIMS=memory`; two processes would each have their own claims and both win).
 * Same rules as the Postgres implementation (take-over of done/failed/expired, steal of a lapsed
 * claimed row, attempt as fencing token; it passes the same conformance suite), plus
 * `setBusy(key)` to make a key look held by another node. It has no row for SQL writes to check,
 * so the runtime asks `holds` before side effects instead.
 */
export class MemoryWorkClaims implements WorkClaims {
  private readonly claims = new Map<string, MemoryClaim>();
  private readonly busy = new Set<string>();
  private readonly now: () => number;
  private readonly telemetry: Telemetry | undefined;

  constructor(options: MemoryWorkClaimsOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.telemetry = options.telemetry;
  }

  /** Every acquire of `key` answers busy until `clearBusy(key)`. */
  setBusy(key: string): void {
    this.busy.add(key);
  }

  clearBusy(key: string): void {
    this.busy.delete(key);
  }

  /** A copy of the claim's row, for assertions. */
  get(key: string): MemoryClaim | undefined {
    const claim = this.claims.get(key);
    return claim ? { ...claim } : undefined;
  }

  acquire(options: AcquireClaimOptions): Promise<AcquireClaimResult> {
    return settle(() => this.acquireNow(options));
  }

  /** `acquire` for each key in order, atomically (all validated first, one synchronous pass). */
  acquireMany(options: AcquireManyClaimsOptions): Promise<AcquireClaimResult[]> {
    return settle((): AcquireClaimResult[] => {
      const { dedupeKeys, owner, leaseSeconds } = options;
      for (const dedupeKey of dedupeKeys) validateClaimInput({ dedupeKey, owner, leaseSeconds });
      validateDistinctKeys(dedupeKeys);
      return dedupeKeys.map((dedupeKey) => this.acquireNow({ dedupeKey, owner, leaseSeconds }));
    });
  }

  private acquireNow(options: AcquireClaimOptions): AcquireClaimResult {
    validateClaimInput(options);
    const meta = { dedupe_key: options.dedupeKey, owner_node: options.owner };
    const now = this.now();
    const leaseUntil = now + options.leaseSeconds * 1000;
    const existing = this.claims.get(options.dedupeKey);
    if (this.busy.has(options.dedupeKey)) {
      this.emit("cyclium.work_claims.busy", meta);
      return { ok: false, error: "busy" };
    }
    let claim: MemoryClaim;
    let stolen = false;
    if (!existing) {
      claim = {
        state: "claimed",
        owner: options.owner,
        leaseUntil,
        attempt: 1,
        steals: 0,
        errorDetail: null,
      };
    } else if (existing.state === "claimed" && existing.leaseUntil < now) {
      stolen = true;
      claim = {
        ...existing,
        owner: options.owner,
        leaseUntil,
        attempt: existing.attempt + 1,
        steals: existing.steals + 1,
        errorDetail: null,
      };
    } else if (existing.state !== "claimed") {
      claim = {
        ...existing,
        state: "claimed",
        owner: options.owner,
        leaseUntil,
        attempt: existing.attempt + 1,
        errorDetail: null,
      };
    } else {
      this.emit("cyclium.work_claims.busy", meta);
      return { ok: false, error: "busy" };
    }
    this.claims.set(options.dedupeKey, claim);
    this.emit(stolen ? "cyclium.work_claims.steal" : "cyclium.work_claims.acquired", meta);
    return { ok: true, attempt: claim.attempt, stolen };
  }

  renew(options: RenewClaimOptions): Promise<RenewClaimResult> {
    return settle((): RenewClaimResult => {
      validateClaimInput(options);
      const meta = { dedupe_key: options.dedupeKey, owner_node: options.owner };
      const claim = this.owned(options);
      if (!claim) {
        this.emit("cyclium.work_claims.renew_failed", { ...meta, reason: "not_owner" });
        return NOT_OWNER;
      }
      claim.leaseUntil = this.now() + options.leaseSeconds * 1000;
      this.emit("cyclium.work_claims.renewed", meta);
      return { ok: true };
    });
  }

  complete(options: CompleteClaimOptions): Promise<ReleaseClaimResult> {
    return settle(() => this.release(options, "done", null));
  }

  fail(options: FailClaimOptions): Promise<ReleaseClaimResult> {
    return settle(() => this.release(options, "failed", options.errorDetail));
  }

  failMany(options: FailManyClaimsOptions): Promise<ReleaseClaimResult[]> {
    return settle((): ReleaseClaimResult[] => {
      const { owner } = options;
      for (const { dedupeKey } of options.claims) validateClaimInput({ dedupeKey, owner });
      validateDistinctKeys(options.claims.map((claim) => claim.dedupeKey));
      return options.claims.map((claim) =>
        this.release({ ...claim, owner }, "failed", claim.errorDetail),
      );
    });
  }

  reclaimExpired(options: ReclaimExpiredOptions): Promise<ReclaimExpiredResult> {
    return settle((): ReclaimExpiredResult => {
      validateReclaimLimit(options.limit);
      const now = this.now();
      const expiredKeys: string[] = [];
      for (const [key, claim] of this.claims) {
        if (expiredKeys.length >= options.limit) break;
        if (claim.state === "claimed" && claim.leaseUntil < now) {
          claim.state = "expired";
          expiredKeys.push(key);
        }
      }
      return { expiredKeys };
    });
  }

  holds(fence: ClaimFence): Promise<boolean> {
    return settle((): boolean => {
      const claim = this.claims.get(fence.dedupeKey);
      return (
        claim?.state === "claimed" && claim.owner === fence.owner && claim.attempt === fence.attempt
      );
    });
  }

  private owned(options: CompleteClaimOptions): MemoryClaim | undefined {
    const claim = this.claims.get(options.dedupeKey);
    if (!claim || claim.state !== "claimed" || claim.owner !== options.owner) return undefined;
    if (options.attempt !== undefined && claim.attempt !== options.attempt) return undefined;
    return claim;
  }

  private release(
    options: CompleteClaimOptions,
    state: "done" | "failed",
    errorDetail: string | null,
  ): ReleaseClaimResult {
    validateClaimInput(options);
    const claim = this.owned(options);
    if (!claim) return NOT_OWNER;
    claim.state = state;
    if (errorDetail !== null) claim.errorDetail = errorDetail;
    this.emit(state === "done" ? "cyclium.work_claims.completed" : "cyclium.work_claims.failed", {
      dedupe_key: options.dedupeKey,
      owner_node: options.owner,
    });
    return { ok: true };
  }

  private emit(name: TelemetryEventName, metadata: Record<string, string>): void {
    this.telemetry?.emit(name, { count: 1 }, metadata);
  }
}
