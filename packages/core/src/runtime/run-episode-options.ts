import type { ActorRegistry } from "../actors/index";
import type { Bus } from "../bus/index";
import type { ClaimFence, WorkClaims } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import type { LimitRule } from "../limits/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type { EpisodeTrace } from "./episode-trace";
import type { SlotAnswer } from "./start-ahead";

export interface LocalRunnerOptions {
  /** A pool: episodes' starts and ends are written in shared statements. */
  db: Queryable & Connectable;
  claims: WorkClaims;
  leaseSeconds: number;
  nodeIdentity: string;
  registry: ActorRegistry;
  /** Receives `episode.completed` / `episode.failed`; omit in unit tests. */
  bus?: Bus;
  logger: Logger;
  telemetry: Telemetry;
  /** Aborted when the node stops for good (after the drain grace period). */
  hardStop: AbortSignal;
  /** True while the node drains: running episodes finish their current step and stop. */
  isDraining: () => boolean;
}

export interface RunEpisodeOptions {
  recovered?: boolean;
  resume?: unknown;
  /** The trigger request a poller dispatched it from: marked completed with the episode's end. */
  triggerRequestId?: string;
  /**
   * Called once when the strategy has returned (completed or failed) and before its end is
   * written: the caller may start another episode meanwhile (EpisodeSlots pipelines ends). The
   * run still settles only after the end has committed (or failed, leaving it to recovery).
   */
  onStrategyReturned?: () => void;
  /**
   * Called once the episode has started (claim taken, row `running`) and before its strategy
   * runs: the strategy waits for `run`. EpisodeSlots starts episodes ahead of a free slot and
   * answers when one frees. `stopping` (the actor may no longer run here), or a wait ended by the
   * node's hard stop, puts the episode back to pending at once (StartedAheadUnstarts): its
   * strategy never ran. Only when that cannot be done (claims off, the claim lost, the write
   * failed) is it left `running` for recovery.
   */
  beforeStrategy?: () => SlotAnswer | Promise<SlotAnswer>;
  /**
   * Already started here under its own lease (the poller's startRequestedEpisodes, SPEC section
   * 4): run it, presenting `fence`. `leaseStartedAt` is `performance.now()` just before the start
   * was sent (the lease is counted from it).
   */
  started?: { fence: ClaimFence; leaseStartedAt: number };
}

/**
 * `limits`: the episode's cluster-wide limit rules (SPEC section 16), empty without any.
 * `wake`: the episode was claimed `waiting` (SPEC 17): it resumes from its wait's checkpoint.
 */
export type TracedRun = RunEpisodeOptions & {
  trace: EpisodeTrace;
  limits: LimitRule[];
  wake: boolean;
};

/** Thrown inside the claim so that runWithClaim marks the claim `failed`, not `done`. */
export class LeftRunning extends Error {
  override readonly name = "LeftRunning";
  constructor(readonly reason: "aborted" | "interrupted") {
    super(`episode left running (${reason}); recovery takes it from here`);
  }
}
