import { performance } from "node:perf_hooks";

/**
 * How long this node may still count a claim as its own, by its own monotonic clock: the lease
 * runs from just before the acquire was sent, and again from just before every renew that the
 * database answered ok (the database extended it at some instant after that). The lease keeper
 * aborts the work when it lapses; the runtime keeps the same object after the claim leaves the
 * keeper (before the end statement), so that an end write failing on a dropped connection is
 * resent only while no other node can have taken the episode over.
 */
export class LeaseReckoning {
  #deadline: number;

  constructor(
    private readonly leaseMs: number,
    startedAt: number = performance.now(),
    /** Stop before the lease lapses by this much: a steal must not be possible yet. */
    readonly marginMs: number = leaseMs / 10,
  ) {
    this.#deadline = startedAt + leaseMs;
  }

  /** `performance.now()` at which the lease counts as lapsed (the deadline minus the margin). */
  get lapsesAt(): number {
    return this.#deadline - this.marginMs;
  }

  /** True while the lease has not lapsed by our reckoning (minus the margin). */
  held(): boolean {
    return performance.now() < this.lapsesAt;
  }

  /** A renew sent at `sentAt` was answered ok. */
  renewed(sentAt: number): void {
    this.#deadline = Math.max(this.#deadline, sentAt + this.leaseMs);
  }
}
