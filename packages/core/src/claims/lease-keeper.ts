import { performance } from "node:perf_hooks";
import { assertNever, CycliumError } from "../errors/index";
import { silentLogger, type Logger } from "../telemetry/index";
import { KeptClaim, type ClaimKeeper, type Heartbeat, type HeartbeatEnd } from "./kept-claim";
import { LeaseReckoning } from "./lease-reckoning";
import { renewLeases, type LeaseRenewalOptions } from "./lease-renewal";
import type { RenewClaimResult, WorkClaims } from "./work-claims";

export type { Heartbeat, HeartbeatEnd } from "./kept-claim";

export interface LeaseKeeperOptions {
  claims: WorkClaims;
  /** The node: every claim the keeper holds is this owner's. */
  owner: string;
  leaseSeconds: number;
  /** Abort the work this long before the lease lapses by our own reckoning. Default lease/10. */
  safetyMarginMs?: number;
  /** A renew slower than this counts as failed and is retried. Default lease/3. */
  renewTimeoutMs?: number;
  /** Pause between retries of a failed renew. Default min(1 s, lease/12). */
  retryDelayMs?: number;
  /** Pause before the renew loop goes on after it crashed. Default 100 ms. */
  restartDelayMs?: number;
  /** The node's shutdown signal: aborts the work of every claim held. */
  signal?: AbortSignal;
  logger?: Logger;
}

export interface HoldClaimOptions {
  dedupeKey: string;
  /** The attempt that was acquired; renewals are fenced on it. */
  attempt?: number | undefined;
  /**
   * `performance.now()` taken just before the acquire was sent. The database started the lease
   * no earlier than that, so counting from it never overestimates what is left. Defaults to
   * now, which is late by one round trip; the safety margin covers that.
   */
  leaseStartedAt?: number | undefined;
  /**
   * The reckoning to keep (its own margin applies): the runtime goes on reading it after the
   * claim leaves the keeper. Default: a new one from `leaseStartedAt`.
   */
  lease?: LeaseReckoning | undefined;
}

type TickOutcome = "ok" | "failed" | "crashed";

/**
 * Keeps all of a node's claims alive (SPEC section 4) with one renew per tick for all of them:
 * `renewMany` (one statement with postgres claims) when the adapter has it, else `renew` per
 * claim. A tick comes every lease/3 while the keeper holds claims, so every claim is renewed
 * within lease/3 of joining and two renewals can fail before its lease is in danger. A claim the
 * answer leaves out was lost: exactly its work is aborted. A renew that throws or hangs is
 * retried, while one watchdog timer aborts each claim's work once its lease has lapsed by this
 * process's own monotonic clock (minus a margin), so the work stops before another node can
 * steal the claim, even if the database never answers again.
 *
 * Per claim it keeps an AbortController and the reckoning, nothing else: no timer, no listener
 * and no promise per episode. (The per-episode heartbeat's sleep rejected with an AbortError on
 * every stop, 8 % of a worker's CPU in the drain bench.) With no claim held it keeps no timer.
 */
export class LeaseKeeper implements ClaimKeeper {
  restarts = 0;
  readonly #options: LeaseKeeperOptions;
  readonly #held = new Set<KeptClaim>();
  readonly #leaseMs: number;
  readonly #intervalMs: number;
  readonly #marginMs: number;
  readonly #renewTimeoutMs: number;
  readonly #retryDelayMs: number;
  readonly #logger: Logger;
  readonly #renewal: LeaseRenewalOptions;
  #tick: NodeJS.Timeout | undefined;
  #inFlight = false;
  #watchdog: NodeJS.Timeout | undefined;
  #watchdogAt = Number.POSITIVE_INFINITY;
  readonly #onShutdown = (): void => {
    const reason: unknown =
      this.#options.signal?.reason ?? new CycliumError("shutdown", "Node is shutting down.");
    for (const claim of this.#held) this.#finish(claim, "shutdown", reason);
  };

  constructor(options: LeaseKeeperOptions) {
    this.#options = options;
    this.#leaseMs = options.leaseSeconds * 1000;
    this.#intervalMs = this.#leaseMs / 3;
    this.#marginMs = options.safetyMarginMs ?? this.#leaseMs / 10;
    this.#renewTimeoutMs = options.renewTimeoutMs ?? this.#intervalMs;
    this.#retryDelayMs = options.retryDelayMs ?? Math.min(1000, this.#leaseMs / 12);
    this.#logger = options.logger ?? silentLogger;
    this.#renewal = {
      claims: options.claims,
      owner: options.owner,
      leaseSeconds: options.leaseSeconds,
      logger: this.#logger,
    };
    options.signal?.addEventListener("abort", this.#onShutdown, { once: true });
  }

  /** How many claims it holds now. */
  get size(): number {
    return this.#held.size;
  }

  /** Starts keeping a claim this node has just acquired. */
  hold(options: HoldClaimOptions): Heartbeat {
    const lease =
      options.lease ??
      new LeaseReckoning(
        this.#leaseMs,
        options.leaseStartedAt ?? performance.now(),
        this.#marginMs,
      );
    const claim = new KeptClaim(this, options.dedupeKey, options.attempt, lease);
    if (this.#options.signal?.aborted === true) {
      this.#held.add(claim);
      this.#onShutdown();
      return claim;
    }
    this.#held.add(claim);
    this.#armWatchdog(lease.lapsesAt);
    if (this.#tick === undefined && !this.#inFlight) this.#schedule(this.#intervalMs);
    return claim;
  }

  /** Stops listening to the shutdown signal; claims still held are let go without an abort. */
  close(): void {
    this.#options.signal?.removeEventListener("abort", this.#onShutdown);
    for (const claim of this.#held) this.#finish(claim, "stopped");
  }

  /** @internal: a claim's own stop. */
  finish(claim: KeptClaim, end: HeartbeatEnd, abortReason?: unknown): void {
    this.#finish(claim, end, abortReason);
  }

  #finish(claim: KeptClaim, end: HeartbeatEnd, abortReason?: unknown): void {
    if (!this.#held.delete(claim)) return;
    claim.settle(end, abortReason);
    if (this.#held.size > 0) return;
    // Nothing left to keep: no timer holds the process open. A tick in flight ends on its own.
    clearTimeout(this.#tick);
    this.#tick = undefined;
    clearTimeout(this.#watchdog);
    this.#watchdog = undefined;
    this.#watchdogAt = Number.POSITIVE_INFINITY;
  }

  #schedule(delayMs: number): void {
    this.#tick = setTimeout(this.#onTick, delayMs);
  }

  readonly #onTick = (): void => {
    this.#tick = undefined;
    if (this.#held.size === 0) return;
    this.#inFlight = true;
    const batch = [...this.#held];
    const flight = this.#renew(batch).then((outcome) => {
      this.#inFlight = false;
      if (this.#held.size === 0 || this.#tick !== undefined) return;
      this.#schedule(this.#delayAfter(outcome));
    });
    for (const claim of batch) claim.renewing = flight;
  };

  #delayAfter(outcome: TickOutcome): number {
    switch (outcome) {
      case "ok":
        return this.#intervalMs;
      case "failed":
        return this.#retryDelayMs;
      case "crashed":
        return this.#options.restartDelayMs ?? 100;
      default:
        return assertNever(outcome, "tick outcome");
    }
  }

  /** One round of renewals; settles once answered or timed out and never rejects. */
  async #renew(batch: KeptClaim[]): Promise<TickOutcome> {
    // The database extends each lease at some instant after this.
    const sentAt = performance.now();
    const answered = renewLeases(this.#renewal, batch, (claim, result) =>
      this.#answered(claim, result, sentAt),
    ).catch((error: unknown): TickOutcome => {
      // A broken adapter answering garbage: log, and go on at the next tick.
      this.restarts += 1;
      this.#logger.error(
        { err: error, owner_node: this.#options.owner, claims: batch.length },
        "claim heartbeat crashed; restarting",
      );
      return "crashed";
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timed_out">((resolve) => {
      timer = setTimeout(() => resolve("timed_out"), this.#renewTimeoutMs);
    });
    // An answer arriving after the timeout is still applied: a renewal extends the lease from
    // `sentAt` whenever it is answered, and a lost claim stays lost.
    const outcome = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    if (outcome !== "timed_out") return outcome;
    this.#logger.warn(
      {
        err: new Error(`claim renew timed out after ${this.#renewTimeoutMs} ms`),
        owner_node: this.#options.owner,
        claims: batch.length,
      },
      "claim renew failed; retrying",
    );
    return "failed";
  }

  #answered(claim: KeptClaim, result: RenewClaimResult, sentAt: number): void {
    if (claim.end !== undefined) return; // let go meanwhile: whatever the answer, it is not ours
    if (result.ok) {
      claim.lease.renewed(sentAt);
      return;
    }
    switch (result.error) {
      case "not_owner":
        this.#logger.warn(
          claim.meta(this.#options.owner),
          "claim lost to another owner; aborting work",
        );
        this.#finish(
          claim,
          "lease_lost",
          new CycliumError("lease_lost", "The work claim was lost to another node."),
        );
        return;
      default:
        assertNever(result.error, "renew error");
    }
  }

  #armWatchdog(at: number): void {
    if (at >= this.#watchdogAt) return;
    clearTimeout(this.#watchdog);
    this.#watchdogAt = at;
    this.#watchdog = setTimeout(this.#onWatchdog, Math.max(0, at - performance.now()));
  }

  readonly #onWatchdog = (): void => {
    this.#watchdog = undefined;
    this.#watchdogAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const claim of this.#held) {
      const at = claim.lease.lapsesAt;
      if (at > now) {
        next = Math.min(next, at);
        continue;
      }
      this.#logger.warn(
        claim.meta(this.#options.owner),
        "claim lease lapsed without a successful renew; aborting work",
      );
      this.#finish(
        claim,
        "lease_lapsed",
        new CycliumError("lease_lapsed", "The work claim's lease could not be renewed in time."),
      );
    }
    if (next !== Number.POSITIVE_INFINITY) this.#armWatchdog(next);
  };
}
