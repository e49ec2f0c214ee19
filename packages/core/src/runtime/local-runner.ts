import { performance } from "node:perf_hooks";
import type { ActorRegistry, AnyStrategy, Budget } from "../actors/index";
import { findExpectation } from "../actors/index";
import type { Bus } from "../bus/index";
import {
  runWithAcquiredClaim,
  runWithClaim,
  type ClaimedWork,
  type RunWithClaimOptions,
  type WorkClaims,
} from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import type { Episode } from "../episodes/index";
import { startEpisode } from "../episodes/start-episode";
import type { Logger, Telemetry } from "../telemetry/index";
import { BatchedEpisodeWrites } from "./batched-episode-writes";
import { EPISODE_EVENT_TOPICS, episodeEvent, publishEpisodeEvent } from "./episode-events";
import { EpisodeCheckpoints } from "./checkpoints/episode-checkpoints";
import { RUNTIME_ERROR_CLASSES } from "./error-classes";
import { LeaseReckoning } from "./lease-reckoning";
import { runStepLoop, type StepLoopOutcome } from "./run-step-loop";
import { retryTransient, type RetriedWrite, type WriteRetryOptions } from "./write-retry";

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
}

/** What running one episode here came to. */
export type EpisodeRunResult =
  /** `requestCompleted`: its trigger request was marked completed in the same statement. */
  | { status: "completed" | "failed"; episode: Episode; requestCompleted?: true }
  /** Another node holds the episode's claim (it runs it, or recovery is at it). */
  | { status: "busy" }
  /** The episode was no longer pending (cancelled, expired, started elsewhere). */
  | { status: "not_pending" }
  /** Left `running`: the claim was lost, the node stopped, or a write was fenced. */
  | { status: "left_running"; reason: "aborted" | "fenced" | "interrupted" }
  /** The database failed under us; the episode is left for recovery. */
  | { status: "error"; error: unknown };

/** Thrown inside the claim so that runWithClaim marks the claim `failed`, not `done`. */
class LeftRunning extends Error {
  override readonly name = "LeftRunning";
  constructor(readonly reason: "aborted" | "interrupted") {
    super(`episode left running (${reason}); recovery takes it from here`);
  }
}

/**
 * Executes an episode on this node (the local runner): acquires the work claim on its dedupe key
 * (or `episode:{id}` when it has none), keeps it alive with the heartbeat, marks the episode
 * running, runs the step loop and writes the final status, all fenced on the claim's attempt.
 *
 * With postgres claims, the acquires and running statuses of episodes started in the same
 * event-loop turn go out as one statement, and the ends of episodes finishing together as another
 * (BatchedEpisodeWrites); an episode whose claim is held falls back to the one-episode acquire,
 * which tells a steal from busy.
 */
export class LocalRunner {
  readonly #writes: BatchedEpisodeWrites;
  /**
   * Episodes this runner is starting or running. A second run of one of them is answered `busy`
   * at once (it would have found the claim held anyway), which is what lets a resent start tell
   * its own earlier, unacknowledged commit by the node identity alone (see startEpisodes).
   */
  readonly #active = new Set<string>();

  constructor(private readonly options: LocalRunnerOptions) {
    this.#writes = new BatchedEpisodeWrites({
      db: options.db,
      nodeIdentity: options.nodeIdentity,
      leaseSeconds: options.leaseSeconds,
      telemetry: options.telemetry,
    });
  }

  async run(episode: Episode, runOptions: RunEpisodeOptions = {}): Promise<EpisodeRunResult> {
    if (this.#active.has(episode.id)) return { status: "busy" };
    this.#active.add(episode.id);
    try {
      return await this.#run(episode, runOptions);
    } finally {
      this.#active.delete(episode.id);
    }
  }

  async #run(episode: Episode, runOptions: RunEpisodeOptions): Promise<EpisodeRunResult> {
    const { claims, nodeIdentity, leaseSeconds, logger, hardStop } = this.options;
    const dedupeKey = episode.dedupeKey ?? `episode:${episode.id}`;
    // Started before the first acquire is sent: never later than the database's own lease start.
    const lease = new LeaseReckoning(leaseSeconds * 1000);
    const claim: RunWithClaimOptions = {
      claims: lease.observe(claims),
      dedupeKey,
      owner: nodeIdentity,
      leaseSeconds,
      signal: hardStop,
      logger,
    };
    try {
      if (claims.usesSqlFence === true) {
        const started = await this.#startBatched(episode, claim, lease, runOptions);
        if (started !== undefined) return started;
      }
      const outcome = await runWithClaim(claim, (claimed) =>
        this.#runClaimed(episode, claimed, lease, runOptions),
      );
      return outcome.status === "busy" ? { status: "busy" } : outcome.value;
    } catch (error) {
      if (error instanceof LeftRunning) return { status: "left_running", reason: error.reason };
      logger.error({ err: error, episode_id: episode.id }, "episode run failed; left for recovery");
      return { status: "error", error };
    }
  }

  /** The shared-statement start; undefined when the claim is held (take the one-episode path). */
  async #startBatched(
    episode: Episode,
    claim: RunWithClaimOptions,
    lease: LeaseReckoning,
    runOptions: RunEpisodeOptions,
  ): Promise<EpisodeRunResult | undefined> {
    const leaseStartedAt = performance.now();
    // Until the start is answered there is no claim to lose, but one the first send may have
    // taken: resend only while that lease, counted from the first send, has not lapsed.
    const start = await retryTransient(
      (resend) => this.#writes.start({ episodeId: episode.id, claimKey: claim.dedupeKey, resend }),
      this.#retry("start", episode, {
        mayRetry: () => lease.held(),
        signal: this.options.hardStop,
      }),
    );
    switch (start.kind) {
      case "contended":
        return undefined;
      case "not_pending":
        if (start.claimAttempt !== null) {
          await claim.claims.complete({
            dedupeKey: claim.dedupeKey,
            owner: claim.owner,
            attempt: start.claimAttempt,
          });
        }
        return { status: "not_pending" };
      case "started": {
        const fence = { dedupeKey: claim.dedupeKey, owner: claim.owner, attempt: start.attempt };
        const acquired = { attempt: start.attempt, stolen: false, fence, leaseStartedAt };
        const outcome = await runWithAcquiredClaim(claim, acquired, (claimed) =>
          this.#runStarted(start.episode, claimed, lease, runOptions),
        );
        return outcome.value;
      }
    }
  }

  async #runClaimed(
    queued: Episode,
    claimed: ClaimedWork,
    lease: LeaseReckoning,
    runOptions: RunEpisodeOptions,
  ): Promise<EpisodeRunResult> {
    const started = await retryTransient(
      (resend) =>
        startEpisode(
          {
            episodeId: queued.id,
            fence: claimed.fence,
            executedBy: this.options.nodeIdentity,
            resend,
          },
          this.options.db,
        ),
      this.#retry("start", queued, { mayRetry: () => true, signal: claimed.signal }),
    );
    if (!started.started) {
      if (started.reason === "fenced") return { status: "left_running", reason: "fenced" };
      return { status: "not_pending" };
    }
    return this.#runStarted(started.episode, claimed, lease, runOptions);
  }

  /**
   * Retry options for one of an episode's writes. `signal` is the claim's (aborted when it is
   * lost or lapses, or the node hard-stops) or, before and after the heartbeat, the node's; no
   * write is resent once it fired.
   */
  #retry(
    write: RetriedWrite,
    episode: Episode,
    guard: { mayRetry: () => boolean; signal: AbortSignal },
  ): WriteRetryOptions {
    const { signal } = guard;
    return {
      write,
      mayRetry: () => !signal.aborted && guard.mayRetry(),
      signal,
      telemetry: this.options.telemetry,
      logger: this.options.logger,
      meta: { episode_id: episode.id, actor_id: episode.actorId },
    };
  }

  /** Runs an episode this node has claimed and marked running. */
  async #runStarted(
    episode: Episode,
    claimed: ClaimedWork,
    lease: LeaseReckoning,
    runOptions: RunEpisodeOptions,
  ): Promise<EpisodeRunResult> {
    const { db, nodeIdentity, telemetry, logger } = this.options;
    const fence = claimed.fence;
    const meta = {
      episode_id: episode.id,
      actor_id: episode.actorId,
      expectation_id: episode.expectationId,
    };
    telemetry.emit("cyclium.episode.started", { count: 1 }, meta);
    logger.debug({ ...meta, attempt: claimed.attempt }, "episode started");

    const resolved = this.#resolve(episode);
    const checkpoints = new EpisodeCheckpoints(episode, fence, db);
    const resumeFrom =
      "error" in resolved
        ? undefined
        : await checkpoints.resumePoint(resolved.strategy, { nodeIdentity, logger });
    const outcome: StepLoopOutcome =
      "error" in resolved
        ? { kind: "failed", errorClass: resolved.error, message: resolved.message }
        : await runStepLoop({
            episode,
            strategy: resolved.strategy,
            budget: resolved.budget,
            fence,
            journalAttempt: journalAttempt(episode, claimed),
            signal: claimed.signal,
            isDraining: this.options.isDraining,
            holdsClaim: claimed.holds,
            // Idempotent: an upsert on (episode, number), fenced on the attempt.
            checkpoint: (phase, state, stepNo) =>
              retryTransient(
                () => checkpoints.save(resolved.strategy, phase, state, stepNo),
                this.#retry("checkpoint", episode, {
                  mayRetry: () => true,
                  signal: claimed.signal,
                }),
              ),
            resumeFrom,
            recovered: runOptions.recovered ?? false,
            resume: runOptions.resume,
            db,
            nodeIdentity,
            logger,
            telemetry,
          });

    switch (outcome.kind) {
      case "aborted":
        logger.warn({ ...meta, reason: String(outcome.reason) }, "episode aborted; left running");
        throw new LeftRunning("aborted");
      case "interrupted":
        logger.info({ ...meta, steps: outcome.stepsDone }, "node draining; episode left running");
        throw new LeftRunning("interrupted");
      case "fenced":
        return { status: "left_running", reason: "fenced" };
      case "completed":
      case "failed": {
        const result = await this.#finish(
          episode,
          outcome,
          claimed,
          lease,
          runOptions.triggerRequestId,
        );
        if (result.status === "completed") await checkpoints.discard(logger);
        return result;
      }
    }
  }

  /**
   * The episode's end in one shared, fenced statement: its last step, final status, the claim
   * `done`, its trigger request `completed` and its `episode.completed` / `episode.failed` event,
   * which PostgreSQL sends on commit (a bus that cannot send it that way publishes after).
   */
  async #finish(
    episode: Episode,
    outcome: Extract<StepLoopOutcome, { kind: "completed" | "failed" }>,
    claimed: ClaimedWork,
    lease: LeaseReckoning,
    triggerRequestId: string | undefined,
  ): Promise<EpisodeRunResult> {
    const { bus, telemetry, logger } = this.options;
    const failed = outcome.kind === "failed";
    const errorClass = failed ? outcome.errorClass : null;
    const errorMessage = failed ? outcome.message : null;
    const notify = bus?.inlineNotification?.(
      EPISODE_EVENT_TOPICS[outcome.kind],
      episodeEvent({ ...episode, status: outcome.kind, errorClass, errorMessage }),
    );
    // Found by the fault suite: a renew landing right after this statement found the claim done
    // and reported it lost (renew_failed, lease_lost) for an episode that had just completed.
    await claimed.stopHeartbeat();
    const endWrite = {
      episodeId: episode.id,
      fence: claimed.fence,
      status: outcome.kind,
      ...(failed ? { errorClass, errorMessage } : { result: outcome.result ?? null }),
      ...(outcome.finalStep === undefined
        ? {}
        : { finalStep: { ...outcome.finalStep, attempt: journalAttempt(episode, claimed) } }),
      ...(triggerRequestId === undefined ? {} : { triggerRequestId }),
      ...(notify === undefined ? {} : { notify }),
    };
    // The heartbeat is stopped, so the lease is reckoned here. A resend is harmless: the journal
    // entry has a conflict target, and an end that had committed is recognised (alreadyEnded) by
    // its claim `done` at this attempt and sends no second NOTIFY.
    const end = await retryTransient(
      () => this.#writes.end(endWrite),
      this.#retry("end", episode, { mayRetry: () => lease.held(), signal: this.options.hardStop }),
    );
    if (end.kind === "fenced") return { status: "left_running", reason: "fenced" };
    if (claimed.fence !== null) claimed.markReleased();
    if (end.kind === "not_running") return { status: "not_pending" };
    const final = end.episode;
    if (notify === undefined) await publishEpisodeEvent(bus, final, logger);
    const durationMs =
      final.finishedAt && final.startedAt
        ? final.finishedAt.getTime() - final.startedAt.getTime()
        : 0;
    const meta = {
      episode_id: final.id,
      actor_id: final.actorId,
      expectation_id: final.expectationId,
    };
    if (outcome.kind === "completed") {
      telemetry.emit("cyclium.episode.completed", { count: 1, duration_ms: durationMs }, meta);
    } else {
      const failed = { ...meta, error_class: outcome.errorClass };
      telemetry.emit("cyclium.episode.failed", { count: 1, duration_ms: durationMs }, failed);
      logger.info({ ...failed, error: outcome.message }, "episode failed");
    }
    return {
      status: outcome.kind,
      episode: final,
      ...(triggerRequestId === undefined ? {} : { requestCompleted: true as const }),
    };
  }

  #resolve(
    episode: Episode,
  ): { strategy: AnyStrategy; budget: Budget } | { error: string; message: string } {
    const { registry, nodeIdentity } = this.options;
    const actor = registry.get(episode.actorId);
    const expectation = actor && findExpectation(actor, episode.expectationId);
    if (actor === undefined || expectation === undefined) {
      return {
        error: RUNTIME_ERROR_CLASSES.unknownActor,
        message: `Actor "${episode.actorId}" has no expectation "${episode.expectationId}" on node ${nodeIdentity}.`,
      };
    }
    const strategy = registry.resolveStrategy(expectation);
    if (!strategy.ok) {
      const known = registry.strategies.names();
      return {
        error: RUNTIME_ERROR_CLASSES.unknownStrategy,
        message: `Strategy "${strategy.name}" (actor ${actor.identifier}, expectation ${expectation.id}) is not registered on node ${nodeIdentity}; registered: ${known.length > 0 ? known.join(", ") : "none"}.`,
      };
    }
    return { strategy: strategy.strategy, budget: expectation.budget };
  }
}

/**
 * The journal's attempt column: the claim's attempt (a node that took the episode over journals
 * under a new one and never collides with the zombie's steps), or the episode's without claims.
 */
function journalAttempt(episode: Episode, claimed: ClaimedWork): number {
  return claimed.fence === null ? episode.attempt : claimed.attempt;
}
