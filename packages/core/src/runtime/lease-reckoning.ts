import { performance } from "node:perf_hooks";
import type { WorkClaims } from "../claims/index";

/**
 * How long this node may still count a claim as its own, by its own monotonic clock: the lease
 * runs from just before the acquire was sent, and again from just before every renew that the
 * database answered ok (the database extended it at some instant after that). The heartbeat keeps
 * the same reckoning to abort the work; this copy outlives the heartbeat, which is stopped before
 * the end statement, so that an end write failing on a dropped connection is resent only while
 * no other node can have taken the episode over.
 */
export class LeaseReckoning {
  #deadline: number;
  readonly #marginMs: number;

  constructor(
    private readonly leaseMs: number,
    startedAt: number = performance.now(),
  ) {
    this.#deadline = startedAt + leaseMs;
    // The heartbeat's margin (lease/10): stop resending before a steal becomes possible.
    this.#marginMs = leaseMs / 10;
  }

  /** True while the lease has not lapsed by our reckoning (minus the margin). */
  held(): boolean {
    return performance.now() < this.#deadline - this.#marginMs;
  }

  /** A renew sent at `sentAt` was answered ok. */
  renewed(sentAt: number): void {
    this.#deadline = Math.max(this.#deadline, sentAt + this.leaseMs);
  }

  /**
   * `claims` as the heartbeat sees it, with every successful renew recorded here. A Proxy rather
   * than a copy of the methods: whatever else the adapter offers reaches it unchanged.
   */
  observe(claims: WorkClaims): WorkClaims {
    const renew: WorkClaims["renew"] = async (options, tx) => {
      const sentAt = performance.now();
      const result = await claims.renew(options, tx);
      if (result.ok) this.renewed(sentAt);
      return result;
    };
    return new Proxy(claims, {
      get(target, property) {
        if (property === "renew") return renew;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function"
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    });
  }
}
