import { performance } from "node:perf_hooks";
import type { ActorRegistry } from "../actors/index";
import type { Bus } from "../bus/index";
import {
  LeaseKeeper,
  LeaseReckoning,
  runWithAcquiredClaim,
  runWithClaim,
  type ClaimedWork,
  type ClaimFence,
  type RunWithClaimOptions,
  type WorkClaims,
} from "../claims/index";
import { claimKeyOf } from "../claims/claim-key";
import type { Connectable, Queryable } from "../db/index";
import type { Episode } from "../episodes/index";
import { assertNever } from "../errors/index";
import { startEpisode } from "../episodes/start-episode";
import { EpisodeLeaseClaims, recordRunTraceparent } from "../episodes/lease/index";
import type { LimitRule } from "../limits/index";
import type { Logger, Telemetry } from "../telemetry/index";
import { BatchedEpisodeWrites } from "./batched-episode-writes";
import type { EpisodeRunResult } from "./episode-run-result";
import { EpisodeCheckpoints } from "./checkpoints/episode-checkpoints";
import { EpisodeTrace } from "./episode-trace";
import { guardedCall } from "./guarded-call";
import { LimitWakeups } from "./limit-wakeups";
import { resolveEpisodeStrategy } from "./resolve-episode-strategy";
import { retryDelayMs } from "./retry-backoff";
import { runStepLoop, type StepLoopOutcome } from "./run-step-loop";
import { journalAttempt, writeEpisodeEnd } from "./write-episode-end";
import { writeEpisodePark } from "./write-episode-park";
import { checkpointVersionOf } from "./checkpoints/resolve-resume";
import { isWakeResume, loadWakeup } from "../waits/index";
import type { SlotAnswer } from "./start-ahead";
import { StartedAheadUnstarts } from "./unstart-started-ahead";
import { RunningHandBacks } from "./hand-back-running";
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

export type { EpisodeRunResult };

/**
 * `limits`: the episode's cluster-wide limit rules (SPEC section 16), empty without any.
 * `wake`: the episode was claimed `waiting` (SPEC 17): it resumes from its wait's checkpoint.
 */
type TracedRun = RunEpisodeOptions & { trace: EpisodeTrace; limits: LimitRule[]; wake: boolean };

/** Thrown inside the claim so that runWithClaim marks the claim `failed`, not `done`. */
class LeftRunning extends Error {
  override readonly name = "LeftRunning";
  constructor(readonly reason: "aborted" | "interrupted") {
    super(`episode left running (${reason}); recovery takes it from here`);
  }
}

/**
 * Executes an episode on this node (the local runner): acquires the work claim on its dedupe key
 * (or `episode:{id}` when it has none), keeps it alive with the node's lease keeper (one renew
 * statement per tick for all the episodes running here), marks the episode running, runs the
 * step loop and writes the final status, all fenced on the claim's attempt.
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
  /** Renews the claims of all the episodes running here with one statement per tick. */
  readonly #keeper: LeaseKeeper;
  /**
   * With the built-in PostgreSQL claims: episodes started here hold their lease in their row
   * (SPEC section 4), kept by a keeper of their own (renewEpisodeLeases, one statement per tick).
   * Undefined when every run holds a claim row (custom adapters, `postgres-claim-rows`).
   */
  readonly #inRow: { claims: EpisodeLeaseClaims; keeper: LeaseKeeper } | undefined;
  /** Puts episodes started ahead that get no slot back to pending. */
  readonly #unstarts: StartedAheadUnstarts;
  /** Hands running episodes back to pending when the node stops before they finish. */
  readonly #handBacks: RunningHandBacks;
  /** Who a limited episode's end here wakes: this node's poller first (LimitWakeups). */
  readonly limitWakeups: LimitWakeups;

  constructor(private readonly options: LocalRunnerOptions) {
    this.#keeper = new LeaseKeeper({
      claims: options.claims,
      owner: options.nodeIdentity,
      leaseSeconds: options.leaseSeconds,
      signal: options.hardStop,
      logger: options.logger,
    });
    const { claims } = options;
    if (claims.usesSqlFence === true && claims.off !== true && claims.episodeLeasesInRow === true) {
      const rowClaims = new EpisodeLeaseClaims(options.db, options.telemetry);
      this.#inRow = {
        claims: rowClaims,
        keeper: new LeaseKeeper({
          claims: rowClaims,
          owner: options.nodeIdentity,
          leaseSeconds: options.leaseSeconds,
          signal: options.hardStop,
          logger: options.logger,
        }),
      };
    }
    this.#writes = new BatchedEpisodeWrites({
      db: options.db,
      nodeIdentity: options.nodeIdentity,
      leaseSeconds: options.leaseSeconds,
      telemetry: options.telemetry,
      inRow: this.#inRow !== undefined,
    });
    this.#unstarts = new StartedAheadUnstarts(options);
    this.#handBacks = new RunningHandBacks(options);
    this.limitWakeups = new LimitWakeups(options);
  }

  async run(episode: Episode, runOptions: RunEpisodeOptions = {}): Promise<EpisodeRunResult> {
    if (this.#active.has(episode.id)) return { kind: "busy" };
    this.#active.add(episode.id);
    const trace = new EpisodeTrace(
      episode,
      this.options.nodeIdentity,
      runOptions.recovered ?? false,
    );
    let result: EpisodeRunResult = { kind: "busy" };
    const limits = this.options.registry.limitRulesFor(episode);
    try {
      // Handed over `waiting` (claimed before its start), or started from its wake-up request.
      const wake = episode.status === "waiting" || isWakeResume(runOptions.resume);
      result = await this.#run(episode, { ...runOptions, trace, limits, wake });
      return result;
    } finally {
      trace.end(result);
      this.#active.delete(episode.id);
      if (limits.length > 0 && ranHere(result)) {
        this.limitWakeups.freed(episode.sourceEnv, limits);
      }
      if (result.kind === "limited") {
        const reason = result.wait.c === "rate" ? "rate_limited" : "concurrency_limited";
        this.options.telemetry.emit(
          `cyclium.episode.${reason}`,
          { count: 1 },
          { actor_id: episode.actorId, expectation_id: episode.expectationId },
        );
      }
    }
  }

  /** True when episodes started here hold their lease in their row (see #inRow). */
  get leasesInRow(): boolean {
    return this.#inRow !== undefined;
  }

  async #run(episode: Episode, runOptions: TracedRun): Promise<EpisodeRunResult> {
    const { claims, nodeIdentity, leaseSeconds, logger, hardStop } = this.options;
    const dedupeKey = claimKeyOf(episode);
    // Started before the first acquire is sent: never later than the database's own lease start.
    const lease = new LeaseReckoning(
      leaseSeconds * 1000,
      runOptions.started?.leaseStartedAt ?? performance.now(),
    );
    const claim: RunWithClaimOptions = {
      claims,
      dedupeKey,
      owner: nodeIdentity,
      leaseSeconds,
      signal: hardStop,
      logger,
      keeper: this.#keeper,
      lease,
    };
    try {
      if (runOptions.started !== undefined) {
        const { fence, leaseStartedAt } = runOptions.started;
        await this.#recordRunTraceparent(episode, fence, runOptions.trace);
        return await this.#runInRow(episode, fence, leaseStartedAt, lease, runOptions);
      }
      if (claims.usesSqlFence === true) {
        const started = await this.#startBatched(episode, claim, lease, runOptions);
        if (started !== undefined) return started;
      }
      const outcome = await runWithClaim(claim, (claimed) =>
        this.#runClaimed(episode, claimed, lease, runOptions),
      );
      return outcome.kind === "busy" ? { kind: "busy" } : outcome.value;
    } catch (error) {
      if (error instanceof LeftRunning) return { kind: "left_running", reason: error.reason };
      logger.error({ err: error, episode_id: episode.id }, "episode run failed; left for recovery");
      return { kind: "error", error };
    }
  }

  /**
   * An episode the poller started in its row (its start was sent before the run span existed):
   * its run's traceparent is written before the first step, so the next attempt links here even
   * if this node dies mid-step. Tracing only; a failed write is logged and the run goes on.
   */
  async #recordRunTraceparent(
    episode: Episode,
    fence: ClaimFence,
    trace: EpisodeTrace,
  ): Promise<void> {
    const runTraceparent = trace.runTraceparent;
    if (runTraceparent === null) return;
    const { db, logger } = this.options;
    const options = { episodeId: episode.id, owner: fence.owner, attempt: fence.attempt };
    await recordRunTraceparent({ ...options, runTraceparent }, db).catch((err: unknown) =>
      logger.warn({ err, episode_id: episode.id }, "could not record the run's traceparent"),
    );
  }

  /** The shared-statement start; undefined when the claim is held (take the one-episode path). */
  async #startBatched(
    episode: Episode,
    claim: RunWithClaimOptions,
    lease: LeaseReckoning,
    runOptions: TracedRun,
  ): Promise<EpisodeRunResult | undefined> {
    const leaseStartedAt = performance.now();
    // Until the start is answered there is no claim to lose, but one the first send may have
    // taken: resend only while that lease, counted from the first send, has not lapsed.
    const start = await retryTransient(
      (resend) =>
        this.#writes.start({
          episodeId: episode.id,
          claimKey: claim.dedupeKey,
          resend,
          runTraceparent: runOptions.trace.runTraceparent,
          limits: runOptions.limits,
        }),
      this.#retry("start", episode, {
        mayRetry: () => lease.held(),
        signal: this.options.hardStop,
      }),
    );
    switch (start.kind) {
      case "contended":
        return undefined;
      case "limited":
        return { kind: "limited", wait: start.wait };
      case "not_pending":
        if ("claimAttempt" in start && start.claimAttempt !== null) {
          await claim.claims.complete({
            dedupeKey: claim.dedupeKey,
            owner: claim.owner,
            attempt: start.claimAttempt,
          });
        }
        return { kind: "not_pending" };
      case "started": {
        if ("fence" in start) {
          return this.#runInRow(start.episode, start.fence, leaseStartedAt, lease, runOptions);
        }
        const fence = { dedupeKey: claim.dedupeKey, owner: claim.owner, attempt: start.attempt };
        const acquired = { attempt: start.attempt, stolen: false, fence, leaseStartedAt };
        const outcome = await runWithAcquiredClaim(claim, acquired, (claimed) =>
          this.#runStarted(start.episode, claimed, lease, runOptions),
        );
        return outcome.value;
      }
    }
  }

  /**
   * An episode started here under its own lease (SPEC section 4): the same claim life cycle, on
   * its row. The node's in-row keeper renews it, `holds` tests the row, and the run's release
   * (an end, a hand-back, an unstart, or `fail` when it is left running) clears `lease_until`.
   */
  async #runInRow(
    episode: Episode,
    fence: ClaimFence,
    leaseStartedAt: number,
    lease: LeaseReckoning,
    runOptions: TracedRun,
  ): Promise<EpisodeRunResult> {
    const inRow = this.#inRow;
    if (inRow === undefined || fence.episodeId !== episode.id) {
      throw new Error(
        `episode ${episode.id} was started in its row on a node without in-row leases`,
      );
    }
    const { nodeIdentity, leaseSeconds, logger, hardStop } = this.options;
    const claim: RunWithClaimOptions = {
      claims: inRow.claims,
      // EpisodeLeaseClaims is keyed by episode id.
      dedupeKey: episode.id,
      owner: nodeIdentity,
      leaseSeconds,
      signal: hardStop,
      logger,
      keeper: inRow.keeper,
      lease,
    };
    const acquired = { attempt: fence.attempt, stolen: false, fence, leaseStartedAt };
    const outcome = await runWithAcquiredClaim(claim, acquired, (claimed) =>
      this.#runStarted(episode, claimed, lease, runOptions),
    );
    return outcome.value;
  }

  async #runClaimed(
    queued: Episode,
    claimed: ClaimedWork,
    lease: LeaseReckoning,
    runOptions: TracedRun,
  ): Promise<EpisodeRunResult> {
    const started = await retryTransient(
      (resend) =>
        startEpisode(
          {
            episodeId: queued.id,
            fence: claimed.fence,
            executedBy: this.options.nodeIdentity,
            resend,
            runTraceparent: runOptions.trace.runTraceparent,
            limits: runOptions.limits,
          },
          this.options.db,
        ),
      this.#retry("start", queued, { mayRetry: () => true, signal: claimed.signal }),
    );
    switch (started.kind) {
      case "fenced":
        return { kind: "left_running", reason: "fenced" };
      case "not_pending":
        return { kind: "not_pending" };
      case "limited":
        return { kind: "limited", wait: started.wait };
      case "started":
        return this.#runStarted(started.episode, claimed, lease, runOptions);
      default:
        return assertNever(started, "start result");
    }
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

  /**
   * A stopping node's episode that will not finish here: back to pending for another worker when
   * its expectation's recovery policy is `restart` (re-running from its newest checkpoint is what
   * its author allowed), or when it stopped between steps right after checkpointing the last one
   * (`stepsDone`), so that the resumed run repeats nothing. Otherwise a `fail` episode stays
   * `running` for recovery to fail, as before: re-running part of it was never allowed.
   */
  async #handBack(
    episode: Episode,
    claimed: ClaimedWork,
    stepsDone: number | null,
    runOptions: TracedRun,
    checkpoints: EpisodeCheckpoints,
  ): Promise<EpisodeRunResult | undefined> {
    const policy = this.options.registry.recoveryPolicyFor(episode.actorId, episode.expectationId);
    const repeatsNothing = stepsDone !== null && checkpoints.newest === stepsDone;
    if (policy !== "restart" && !repeatsNothing) return undefined;
    return this.#handBacks.handBack(episode, claimed, {
      stepsDone,
      triggerRequestId: runOptions.triggerRequestId,
    });
  }

  #strategyReturned(runOptions: TracedRun, meta: Record<string, unknown>): void {
    try {
      runOptions.onStrategyReturned?.();
    } catch (error) {
      this.options.logger.error({ ...meta, err: error }, "onStrategyReturned threw");
    }
  }

  /** Runs an episode this node has claimed and marked running. */
  async #runStarted(
    episode: Episode,
    claimed: ClaimedWork,
    lease: LeaseReckoning,
    runOptions: TracedRun,
  ): Promise<EpisodeRunResult> {
    const { db, nodeIdentity, telemetry, logger } = this.options;
    let isDraining = this.options.isDraining;
    if (runOptions.beforeStrategy !== undefined) {
      const asked = runOptions.beforeStrategy();
      // Waiting for a slot ends early when the claim is lost or the node hard-stops.
      const waited =
        typeof asked === "string"
          ? ({ kind: "value", value: asked } as const)
          : await guardedCall(() => asked, claimed.signal, Number.POSITIVE_INFINITY);
      if (waited.kind !== "value" || waited.value === "stopping") {
        // No slot here: its strategy never ran. Pending again at once when the claim is still
        // this attempt's (a lost claim leaves it to whoever took it).
        const unstarted = await this.#unstarts.unstart(episode, claimed, runOptions);
        if (unstarted !== undefined) return unstarted;
        throw new LeftRunning(waited.kind !== "value" ? "aborted" : "interrupted");
      }
      // Started ahead and given its slot by a draining node: its first step runs (it was started
      // before the drain), as a running episode's current step does; no further one.
      if (typeof asked !== "string" && isDraining()) isDraining = afterFirstCall(isDraining);
    }
    runOptions.trace.claimed(claimed.attempt);
    const fence = claimed.fence;
    const meta = {
      episode_id: episode.id,
      actor_id: episode.actorId,
      expectation_id: episode.expectationId,
    };
    telemetry.emit("cyclium.episode.started", { count: 1 }, meta);
    logger.debug({ ...meta, attempt: claimed.attempt }, "episode started");

    const resolved = resolveEpisodeStrategy(episode, this.options.registry, nodeIdentity);
    const checkpoints = new EpisodeCheckpoints(episode, fence, db);
    const resumeFrom =
      resolved.kind !== "resolved"
        ? undefined
        : await checkpoints.resumePoint(resolved.strategy, {
            nodeIdentity,
            logger,
            afterWait: runOptions.wake,
          });
    // Resumed from a wait's checkpoint (after the wait, or restarted before the next one).
    const wakeup =
      resumeFrom === undefined
        ? undefined
        : await loadWakeup(
            { episodeId: episode.id, checkpointNumber: resumeFrom.checkpointNumber },
            db,
          );
    const outcome: StepLoopOutcome =
      resolved.kind !== "resolved"
        ? { kind: "failed", errorClass: resolved.errorClass, message: resolved.message }
        : await runStepLoop({
            episode,
            strategy: resolved.strategy,
            budget: resolved.budget,
            fence,
            journalAttempt: journalAttempt(episode, claimed),
            signal: claimed.signal,
            isDraining,
            holdsClaim: claimed.holds,
            announce: { bus: this.options.bus, telemetry, logger },
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
            wakeup,
            recovered: runOptions.recovered ?? false,
            resume: runOptions.resume,
            trace: runOptions.trace.context,
            db,
            nodeIdentity,
            logger,
            telemetry,
          });

    switch (outcome.kind) {
      case "aborted": {
        // Aborted by the node's stop at the end of its grace period (not a lost claim): handed
        // back like an interrupted one; a step still running is fenced out by the release.
        if (this.options.hardStop.aborted) {
          const handed = await this.#handBack(episode, claimed, null, runOptions, checkpoints);
          if (handed !== undefined) return handed;
        }
        logger.warn({ ...meta, reason: String(outcome.reason) }, "episode aborted; left running");
        throw new LeftRunning("aborted");
      }
      case "interrupted": {
        const handed = await this.#handBack(
          episode,
          claimed,
          outcome.stepsDone,
          runOptions,
          checkpoints,
        );
        if (handed !== undefined) return handed;
        logger.info({ ...meta, steps: outcome.stepsDone }, "node draining; episode left running");
        throw new LeftRunning("interrupted");
      }
      case "fenced":
        return { kind: "left_running", reason: "fenced" };
      case "waiting":
        this.#strategyReturned(runOptions, meta);
        return writeEpisodePark({
          episode,
          schemaVersion: resolved.kind === "resolved" ? checkpointVersionOf(resolved.strategy) : 1,
          outcome,
          claimed,
          triggerRequestId: runOptions.triggerRequestId,
          db,
          nodeIdentity,
          logger,
          retry: this.#retry("park", episode, {
            mayRetry: () => claimed.fence === null || lease.held(),
            signal: this.options.hardStop,
          }),
        });
      case "completed":
      case "failed": {
        this.#strategyReturned(runOptions, meta);
        const result = await writeEpisodeEnd(
          {
            writes: this.#writes,
            bus: this.options.bus,
            telemetry,
            logger,
            retry: this.#retry("end", episode, {
              // Claims off: no lease to lapse, only the node's stop ends the resends.
              mayRetry: () => claimed.fence === null || lease.held(),
              signal: this.options.hardStop,
            }),
          },
          {
            episode,
            outcome,
            claimed,
            triggerRequestId: runOptions.triggerRequestId,
            retryDelayMs:
              outcome.kind === "failed" && resolved.kind === "resolved"
                ? retryDelayMs(resolved.retry, episode.attempt, outcome.retryable !== false)
                : undefined,
          },
        );
        if (result.kind === "completed") await checkpoints.discard(logger);
        return result;
      }
    }
  }
}

/** `check`, except that its first call answers false (the step loop asks once per step). */
function afterFirstCall(check: () => boolean): () => boolean {
  let called = false;
  return () => {
    if (!called) {
      called = true;
      return false;
    }
    return check();
  };
}

/** Whether the run started the episode here (so its end freed a limited slot). */
function ranHere(result: EpisodeRunResult): boolean {
  switch (result.kind) {
    case "busy":
    case "not_pending":
    case "limited":
      return false;
    case "completed":
    case "failed":
    case "left_running":
    case "unstarted":
    case "handed_back":
    case "retry_scheduled":
    case "waiting":
    case "error":
      return true;
    default:
      return assertNever(result, "episode run result");
  }
}
