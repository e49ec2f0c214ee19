import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { assertNever, CycliumError } from "../errors/index";
import { silentLogger, type Logger } from "../telemetry/index";
import type { RenewClaimResult, WorkClaims } from "./work-claims";

export interface HeartbeatOptions {
  claims: WorkClaims;
  dedupeKey: string;
  owner: string;
  /** The attempt that was acquired; renewals are fenced on it. */
  attempt?: number;
  leaseSeconds: number;
  /**
   * `performance.now()` taken just before the acquire was sent. The database started the lease
   * no earlier than that, so counting from it never overestimates what is left. Defaults to
   * now, which is late by one round trip; the safety margin covers that.
   */
  leaseStartedAt?: number;
  /** Abort the work this long before the lease lapses by our own reckoning. Default lease/10. */
  safetyMarginMs?: number;
  /** A renew slower than this counts as failed and is retried. Default lease/3. */
  renewTimeoutMs?: number;
  /** Pause between retries of a failed renew. Default min(1 s, lease/12). */
  retryDelayMs?: number;
  /** Pause before a crashed renew loop is started again. Default 100 ms. */
  restartDelayMs?: number;
  /** The node's shutdown signal: aborts the work as well. */
  signal?: AbortSignal;
  logger?: Logger;
}

/** Why the heartbeat ended. Only `stopped` leaves `signal` un-aborted. */
export type HeartbeatEnd = "stopped" | "lease_lost" | "lease_lapsed" | "shutdown";

export interface Heartbeat {
  /** Aborted when the work must stop: lease lost, lease lapsed, or node shutdown. */
  readonly signal: AbortSignal;
  /** Ends the heartbeat without aborting the work (the work is done). Idempotent. */
  stop(): void;
  /**
   * `stop()`, then resolves once a renew already sent has been answered or timed out: a write
   * that releases the claim must not overtake it, or the renew finds the claim released and
   * reports a renew_failed that never was.
   */
  stopAndSettle(): Promise<void>;
  readonly ended: Promise<HeartbeatEnd>;
  /** How many times the renew loop crashed and was restarted. */
  readonly restarts: number;
}

/**
 * Keeps a claim alive while its work runs (SPEC section 4): renews every lease/3, so two renewals
 * can fail before the lease is in danger. `not_owner` ends it and aborts the work. A renew that
 * throws or hangs is retried, while a separate watchdog timer aborts the work once the lease has
 * lapsed by this process's own monotonic clock (minus a margin), so the work stops before
 * another node can steal the claim, even if the database never answers again.
 */
export function startHeartbeat(options: HeartbeatOptions): Heartbeat {
  return new ClaimHeartbeat(options);
}

class ClaimHeartbeat implements Heartbeat {
  readonly ended: Promise<HeartbeatEnd>;
  restarts = 0;
  private readonly work = new AbortController();
  private readonly halt = new AbortController();
  private readonly leaseMs: number;
  private readonly intervalMs: number;
  private readonly marginMs: number;
  private readonly renewTimeoutMs: number;
  private readonly retryDelayMs: number;
  private readonly logger: Logger;
  private deadline: number;
  private watchdog: NodeJS.Timeout | undefined;
  private renewing: Promise<unknown> | undefined;
  private finished = false;
  private resolveEnded!: (end: HeartbeatEnd) => void;
  private readonly onParentAbort = (): void => {
    this.end(
      "shutdown",
      this.options.signal?.reason ?? new CycliumError("shutdown", "Node is shutting down."),
    );
  };

  constructor(private readonly options: HeartbeatOptions) {
    this.leaseMs = options.leaseSeconds * 1000;
    this.intervalMs = this.leaseMs / 3;
    this.marginMs = options.safetyMarginMs ?? this.leaseMs / 10;
    this.renewTimeoutMs = options.renewTimeoutMs ?? this.intervalMs;
    this.retryDelayMs = options.retryDelayMs ?? Math.min(1000, this.leaseMs / 12);
    this.logger = options.logger ?? silentLogger;
    this.deadline = (options.leaseStartedAt ?? performance.now()) + this.leaseMs;
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });

    if (options.signal?.aborted) {
      this.onParentAbort();
      return;
    }
    options.signal?.addEventListener("abort", this.onParentAbort, { once: true });
    this.armWatchdog();
    this.supervise();
  }

  get signal(): AbortSignal {
    return this.work.signal;
  }

  stop(): void {
    this.end("stopped");
  }

  async stopAndSettle(): Promise<void> {
    this.stop();
    await this.renewing?.catch(() => undefined);
  }

  private supervise(): void {
    this.loop().catch((error: unknown) => {
      if (this.finished) return;
      this.restarts += 1;
      this.logger.error({ err: error, ...this.meta() }, "claim heartbeat crashed; restarting");
      // The lease has two intervals of slack and the watchdog keeps running meanwhile.
      setTimeout(() => {
        if (!this.finished) this.supervise();
      }, this.options.restartDelayMs ?? 100);
    });
  }

  private async loop(): Promise<void> {
    let delay = this.intervalMs;
    while (!this.finished) {
      try {
        await sleep(delay, undefined, { signal: this.halt.signal });
      } catch {
        return; // halted
      }
      if (this.finished) return;
      const sentAt = performance.now();
      let result: RenewClaimResult;
      const renewal = this.renewWithTimeout();
      this.renewing = renewal;
      try {
        result = await renewal;
      } catch (error) {
        this.logger.warn({ err: error, ...this.meta() }, "claim renew failed; retrying");
        delay = this.retryDelayMs;
        continue;
      } finally {
        this.renewing = undefined;
      }
      this.handleRenew(result, sentAt);
      delay = this.intervalMs;
    }
  }

  private handleRenew(result: RenewClaimResult, sentAt: number): void {
    if (this.finished) return;
    if (result.ok) {
      // The database extended the lease at some instant after `sentAt`.
      this.deadline = sentAt + this.leaseMs;
      this.armWatchdog();
      return;
    }
    switch (result.error) {
      case "not_owner":
        this.logger.warn(this.meta(), "claim lost to another owner; aborting work");
        this.end(
          "lease_lost",
          new CycliumError("lease_lost", "The work claim was lost to another node."),
        );
        return;
      default:
        assertNever(result.error, "renew error");
    }
  }

  private async renewWithTimeout(): Promise<RenewClaimResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`claim renew timed out after ${this.renewTimeoutMs} ms`)),
        this.renewTimeoutMs,
      );
    });
    try {
      const { claims, dedupeKey, owner, attempt, leaseSeconds } = this.options;
      return await Promise.race([
        claims.renew({
          dedupeKey,
          owner,
          leaseSeconds,
          ...(attempt === undefined ? {} : { attempt }),
        }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private armWatchdog(): void {
    clearTimeout(this.watchdog);
    const due = this.deadline - this.marginMs - performance.now();
    this.watchdog = setTimeout(() => this.checkLapse(), Math.max(0, due));
  }

  private checkLapse(): void {
    if (this.finished) return;
    if (this.deadline - this.marginMs - performance.now() > 0) {
      this.armWatchdog();
      return;
    }
    this.logger.warn(this.meta(), "claim lease lapsed without a successful renew; aborting work");
    this.end(
      "lease_lapsed",
      new CycliumError("lease_lapsed", "The work claim's lease could not be renewed in time."),
    );
  }

  private end(end: HeartbeatEnd, abortReason?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.watchdog);
    this.halt.abort();
    this.options.signal?.removeEventListener("abort", this.onParentAbort);
    if (abortReason !== undefined) this.work.abort(abortReason);
    this.resolveEnded(end);
  }

  private meta(): Record<string, unknown> {
    return {
      dedupe_key: this.options.dedupeKey,
      owner_node: this.options.owner,
      attempt: this.options.attempt,
    };
  }
}
