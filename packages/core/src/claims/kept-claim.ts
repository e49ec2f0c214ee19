import type { LeaseReckoning } from "./lease-reckoning";

/** Why a claim left the keeper. Only `stopped` leaves `signal` un-aborted. */
export type HeartbeatEnd = "stopped" | "lease_lost" | "lease_lapsed" | "shutdown";

/** One claim the keeper holds: its work's signal and the way to let it go. */
export interface Heartbeat {
  /** Aborted when the work must stop: lease lost, lease lapsed, or node shutdown. */
  readonly signal: AbortSignal;
  /** Lets the claim go without aborting the work (the work is done). Idempotent. */
  stop(): void;
  /**
   * `stop()`, then resolves once a renew already sent for it has been answered or timed out: a
   * write that releases the claim must not overtake it, or the renew finds the claim released
   * and reports a renew_failed that never was.
   */
  stopAndSettle(): Promise<void>;
  readonly ended: Promise<HeartbeatEnd>;
  /** How many times the keeper's renew loop crashed and went on. */
  readonly restarts: number;
}

/** What a held claim needs of its keeper. */
export interface ClaimKeeper {
  readonly restarts: number;
  finish(claim: KeptClaim, end: HeartbeatEnd): void;
}

const SETTLED = Promise.resolve();

/** A claim in the keeper: the work's AbortController, its reckoning, and how it ended. */
export class KeptClaim implements Heartbeat {
  readonly #work = new AbortController();
  /** The last round of renewals that included this claim. */
  renewing: Promise<void> | undefined;
  end: HeartbeatEnd | undefined;
  #ended: Promise<HeartbeatEnd> | undefined;
  #resolveEnded: ((end: HeartbeatEnd) => void) | undefined;

  constructor(
    private readonly keeper: ClaimKeeper,
    readonly dedupeKey: string,
    readonly attempt: number | undefined,
    readonly lease: LeaseReckoning,
  ) {}

  get signal(): AbortSignal {
    return this.#work.signal;
  }

  get restarts(): number {
    return this.keeper.restarts;
  }

  /** Made on first use: most callers never ask. */
  get ended(): Promise<HeartbeatEnd> {
    if (this.#ended === undefined) {
      const end = this.end;
      this.#ended =
        end === undefined
          ? new Promise((resolve) => (this.#resolveEnded = resolve))
          : Promise.resolve(end);
    }
    return this.#ended;
  }

  stop(): void {
    this.keeper.finish(this, "stopped");
  }

  stopAndSettle(): Promise<void> {
    this.stop();
    return this.renewing ?? SETTLED;
  }

  /** Called by the keeper once, when the claim leaves it. */
  settle(end: HeartbeatEnd, abortReason: unknown): void {
    this.end = end;
    if (abortReason !== undefined) this.#work.abort(abortReason);
    this.#resolveEnded?.(end);
  }

  meta(owner: string): Record<string, unknown> {
    return { dedupe_key: this.dedupeKey, owner_node: owner, attempt: this.attempt };
  }
}
