import type { ClaimedWork, LeaseReckoning } from "../claims/index";
import type { Episode } from "../episodes/index";
import { loadWakeup } from "../waits/index";
import type { BatchedEpisodeWrites } from "./batched-episode-writes";
import { EpisodeCheckpoints } from "./checkpoints/episode-checkpoints";
import { checkpointVersionOf } from "./checkpoints/resolve-resume";
import type { EpisodeRunResult } from "./episode-run-result";
import { guardedCall } from "./guarded-call";
import type { RunningHandBacks } from "./hand-back-running";
import { resolveEpisodeStrategy } from "./resolve-episode-strategy";
import { retryDelayMs } from "./retry-backoff";
import { LeftRunning, type LocalRunnerOptions, type TracedRun } from "./run-episode-options";
import { runStepLoop, type StepLoopOutcome } from "./run-step-loop";
import type { StartedAheadUnstarts } from "./unstart-started-ahead";
import { journalAttempt, writeEpisodeEnd } from "./write-episode-end";
import { writeEpisodePark } from "./write-episode-park";
import { episodeWriteRetry, retryTransient } from "./write-retry";

/**
 * The run of an episode this node has claimed and marked running (LocalRunner starts it): waits
 * for its slot when started ahead, resumes from its newest checkpoint or its wait, runs the step
 * loop, and writes what it came to (its end, a retry, a park for a wait, a hand-back when the
 * node stops), fenced on the claim's attempt.
 */
export class StartedEpisodeRunner {
  constructor(
    private readonly options: LocalRunnerOptions,
    private readonly parts: {
      writes: BatchedEpisodeWrites;
      unstarts: StartedAheadUnstarts;
      handBacks: RunningHandBacks;
    },
  ) {}

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
    return this.parts.handBacks.handBack(episode, claimed, {
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
  async run(
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
        const unstarted = await this.parts.unstarts.unstart(episode, claimed, runOptions);
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
                episodeWriteRetry(
                  "checkpoint",
                  episode,
                  {
                    mayRetry: () => true,
                    signal: claimed.signal,
                  },
                  this.options,
                ),
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
          retry: episodeWriteRetry(
            "park",
            episode,
            {
              mayRetry: () => claimed.fence === null || lease.held(),
              signal: this.options.hardStop,
            },
            this.options,
          ),
        });
      case "completed":
      case "failed": {
        this.#strategyReturned(runOptions, meta);
        const result = await writeEpisodeEnd(
          {
            writes: this.parts.writes,
            bus: this.options.bus,
            telemetry,
            logger,
            retry: episodeWriteRetry(
              "end",
              episode,
              {
                // Claims off: no lease to lapse, only the node's stop ends the resends.
                mayRetry: () => claimed.fence === null || lease.held(),
                signal: this.options.hardStop,
              },
              this.options,
            ),
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
