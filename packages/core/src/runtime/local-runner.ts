import { performance } from "node:perf_hooks";
import {
  LeaseKeeper,
  LeaseReckoning,
  runWithAcquiredClaim,
  runWithClaim,
  type ClaimedWork,
  type ClaimFence,
  type RunWithClaimOptions,
} from "../claims/index";
import { claimKeyOf } from "../claims/claim-key";
import type { Episode } from "../episodes/index";
import { assertNever } from "../errors/index";
import { startEpisode } from "../episodes/start-episode";
import { EpisodeLeaseClaims, recordRunTraceparent } from "../episodes/lease/index";
import { BatchedEpisodeWrites } from "./batched-episode-writes";
import { ranHere, type EpisodeRunResult } from "./episode-run-result";
import { EpisodeTrace } from "./episode-trace";
import { LimitWakeups } from "./limit-wakeups";
import { isWakeResume } from "../waits/index";
import { StartedAheadUnstarts } from "./unstart-started-ahead";
import { RunningHandBacks } from "./hand-back-running";
import { episodeWriteRetry, retryTransient } from "./write-retry";
import {
  LeftRunning,
  type LocalRunnerOptions,
  type RunEpisodeOptions,
  type TracedRun,
} from "./run-episode-options";
import { StartedEpisodeRunner } from "./run-started-episode";

export type { EpisodeRunResult, LocalRunnerOptions, RunEpisodeOptions };

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
  /** Runs the episodes it started: step loop, end, retry, park or hand-back. */
  readonly #started: StartedEpisodeRunner;
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
    this.#started = new StartedEpisodeRunner(options, {
      writes: this.#writes,
      // Puts episodes started ahead that get no slot back to pending.
      unstarts: new StartedAheadUnstarts(options),
      // Hands running episodes back to pending when the node stops before they finish.
      handBacks: new RunningHandBacks(options),
    });
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
      episodeWriteRetry(
        "start",
        episode,
        { mayRetry: () => lease.held(), signal: this.options.hardStop },
        this.options,
      ),
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
          this.#started.run(start.episode, claimed, lease, runOptions),
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
      this.#started.run(episode, claimed, lease, runOptions),
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
      episodeWriteRetry(
        "start",
        queued,
        { mayRetry: () => true, signal: claimed.signal },
        this.options,
      ),
    );
    switch (started.kind) {
      case "fenced":
        return { kind: "left_running", reason: "fenced" };
      case "not_pending":
        return { kind: "not_pending" };
      case "limited":
        return { kind: "limited", wait: started.wait };
      case "started":
        return this.#started.run(started.episode, claimed, lease, runOptions);
      default:
        return assertNever(started, "start result");
    }
  }
}
