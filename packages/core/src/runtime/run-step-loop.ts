import { performance } from "node:perf_hooks";
import type { AnyStrategy, Budget, EpisodeInfo, StrategyContext, Wakeup } from "../actors/index";
import type { ClaimFence } from "../claims/index";
import type { Connectable, Queryable } from "../db/index";
import { appendStep, type Episode, type JournalStep } from "../episodes/index";
import type { Logger, Telemetry } from "../telemetry/index";
import {
  activeContext,
  runInContext,
  SPAN_ATTRIBUTES,
  SPAN_NAMES,
  startSpan,
  withSpan,
  type Context,
} from "../tracing/index";
import type { AnnounceOptions } from "../bus/index";
import { exhaustedBudget, exhaustedBudgetKind, remainingWallMs } from "./budget-check";
import { describeThrown, RUNTIME_ERROR_CLASSES } from "./error-classes";
import type { ResumePoint } from "./checkpoints/index";
import { clearFindingFenced, raiseFindingFenced } from "./fenced-findings";
import { outputKeyOf, writeOutput } from "../outputs/index";
import { guardedCall } from "./guarded-call";
import { checkStepResult, type CheckedWait } from "./step-result";
import { assertNever } from "../errors/index";
import { retryTransient } from "./write-retry";

export interface RunStepLoopOptions {
  episode: Episode;
  strategy: AnyStrategy;
  budget: Budget;
  /** Presented on every journal write; null when claims are off. */
  fence: ClaimFence | null;
  /** The journal's attempt column: the claim's attempt, or the episode's without claims. */
  journalAttempt: number;
  /** Aborted when the claim is lost or lapses, or when the node stops for good. */
  signal: AbortSignal;
  /** True once the node drains: the step in progress finishes, no further step starts. */
  isDraining: () => boolean;
  holdsClaim: () => Promise<boolean>;
  /** Saves a checkpoint taken during step `stepNo` (fenced); absent = checkpoints not kept. */
  checkpoint?: (phase: string, state: unknown, stepNo: number) => Promise<boolean>;
  /** A restarted episode's newest checkpoint: `init` is skipped, steps go on after it. */
  resumeFrom?: ResumePoint | undefined;
  /** Resumed after a wait (SPEC 17): what woke it, for the first step, and the wall time used before. */
  wakeup?: { wakeup: Wakeup; wallUsedMs: number } | undefined;
  /** Where `finding.raised` / `finding.cleared` go (issue 20); absent: not announced. */
  announce?: AnnounceOptions | undefined;
  recovered: boolean;
  resume: unknown;
  /** The episode run's span context: each step's span is its child. */
  trace?: Context;
  /** A pool: fenced findings lock the claim row in a transaction of their own. */
  db: Queryable & Connectable;
  nodeIdentity: string;
  logger: Logger;
  telemetry: Telemetry;
}

/** A step-journal entry the loop has not written yet. */
export type PendingStep = JournalStep;

/**
 * How the loop ended. Only `completed` and `failed` are written to the episode (by the caller,
 * fenced); the others leave the row `running` for its new owner or for recovery. The step that
 * ended the episode comes back unwritten as `finalStep`, so the caller journals it in the same
 * transaction as the final status: one commit instead of two for every episode.
 */
export type StepLoopOutcome =
  | { kind: "completed"; result: unknown; finalStep?: PendingStep }
  | {
      kind: "failed";
      errorClass: string;
      message: string;
      /** A thrown error's stack (kept with the attempt's error). */
      stack?: string;
      finalStep?: PendingStep;
      /** false: `fail(..., { retry: false })`, final whatever attempts are left. */
      retryable?: false;
    }
  /** The claim was lost or lapsed, or the node stopped for good. */
  | { kind: "aborted"; reason: unknown }
  /** A journal write was rejected: another node owns the episode now. */
  | { kind: "fenced" }
  /** The node is draining; the episode stays `running` with the steps journaled so far. */
  | { kind: "interrupted"; stepsDone: number }
  /**
   * The step returned a wait (SPEC 17): the caller checkpoints `state` as of `finalStep`, parks
   * the episode `waiting` and frees its slot; `wallUsedMs` is carried over to the resumed run.
   */
  | {
      kind: "waiting";
      wait: CheckedWait;
      state: unknown;
      wallUsedMs: number;
      finalStep: PendingStep;
    };

const BUDGET = RUNTIME_ERROR_CLASSES.budgetExceeded;

/**
 * The runner's step loop (SPEC section 2): `init`, then `step` until done or fail. Each step is
 * journaled with its usage in the same fenced statement that adds the usage to the episode's
 * counters; budgets are checked before every step and the wall budget also bounds every await.
 */
export async function runStepLoop(options: RunStepLoopOptions): Promise<StepLoopOutcome> {
  const { episode, strategy, budget, logger } = options;
  // Time spent waiting does not count: a resumed run goes on from the wall time used before.
  const startedAt = performance.now() - (options.wakeup?.wallUsedMs ?? 0);
  const elapsed = (): number => performance.now() - startedAt;
  const firstStep = (options.resumeFrom?.checkpointNumber ?? 0) + 1;
  // ctx.signal also fires when the wall budget runs out, so a strategy's own awaits stop too.
  // Made when a strategy first reads it: most never do, and AbortSignal.any per episode showed
  // in the drain bench's worker profile.
  let wall: AbortController | undefined;
  let wallExhausted: DOMException | undefined;
  let signal: AbortSignal | undefined;
  const strategySignal = (): AbortSignal => {
    if (signal === undefined) {
      wall = new AbortController();
      if (wallExhausted !== undefined) wall.abort(wallExhausted);
      signal = AbortSignal.any([options.signal, wall.signal]);
    }
    return signal;
  };
  const usage = { turns: episode.turnsUsed, tokens: episode.tokensUsed };
  const info = episodeInfo(options);
  const context = (stepNo: number): StrategyContext => ({
    get signal() {
      return strategySignal();
    },
    episode: info,
    wakeup: stepNo === firstStep ? options.wakeup?.wakeup : undefined,
    stepNo,
    usage: { ...usage },
    db: options.db,
    logger,
    holdsClaim: options.holdsClaim,
    raiseFinding: (finding) =>
      raiseFindingFenced(
        { episode, fence: options.fence, finding, announce: options.announce },
        options.db,
      ),
    clearFinding: (findingKey) =>
      clearFindingFenced(
        { episode, fence: options.fence, findingKey, announce: options.announce },
        options.db,
      ),
    checkpoint: (phase, state) =>
      options.checkpoint ? options.checkpoint(phase, state, stepNo) : Promise.resolve(false),
    output: (...args: [unknown] | [string, unknown]) =>
      writeOutput(
        {
          outputKey: outputKeyOf({ key: args.length === 2 ? args[0] : undefined, episode }),
          episode,
          attempt: options.journalAttempt,
          value: args.length === 2 ? args[1] : args[0],
          fence: options.fence,
        },
        options.db,
      ),
  });
  const wallExceeded = (during: string): StepLoopOutcome => {
    const message = `wall-time budget of ${budget.maxWallMs} ms exhausted during ${during}`;
    wallExhausted = new DOMException(message, "TimeoutError");
    wall?.abort(wallExhausted);
    return { kind: "failed", errorClass: BUDGET, message };
  };

  let state: unknown;
  const resumeFrom = options.resumeFrom;
  if (resumeFrom === undefined) {
    const init = await guardedCall(
      () => strategy.init(context(0), episode.input),
      options.signal,
      remainingWallMs(budget, elapsed()),
    );
    if (init.kind === "aborted") return { kind: "aborted", reason: init.reason };
    if (init.kind === "wall_exceeded") return wallExceeded("init");
    if (init.kind === "threw")
      return { kind: "failed", ...initFailure(describeThrown(init.error)) };
    state = init.value;
  } else {
    state = resumeFrom.state;
  }

  for (let stepNo = firstStep; ; stepNo += 1) {
    if (options.signal.aborted) return { kind: "aborted", reason: options.signal.reason };
    if (options.isDraining()) return { kind: "interrupted", stepsDone: stepNo - 1 };
    const exhausted = exhaustedBudget(budget, { ...usage, elapsedMs: elapsed() });
    if (exhausted !== null) {
      const kind = exhaustedBudgetKind(budget, { ...usage, elapsedMs: elapsed() });
      if (strategy.onBudgetExhausted !== undefined && (kind === "turns" || kind === "tokens")) {
        const hook = strategy.onBudgetExhausted.bind(strategy);
        const graceful = await guardedCall(
          () => hook(state, context(stepNo), { budget: kind, message: exhausted }),
          options.signal,
          remainingWallMs(budget, elapsed()),
        );
        if (graceful.kind === "aborted") return { kind: "aborted", reason: graceful.reason };
        if (graceful.kind === "value" && graceful.value?.done === true) {
          return { kind: "completed", result: graceful.value.result };
        }
      }
      return {
        kind: "failed",
        errorClass: BUDGET,
        message: `${exhausted} (before step ${stepNo})`,
      };
    }

    const stepStarted = performance.now();
    const span = startSpan(SPAN_NAMES.step, {
      ...(options.trace ? { parent: options.trace } : {}),
      attributes: { [SPAN_ATTRIBUTES.episodeId]: episode.id, [SPAN_ATTRIBUTES.step]: stepNo },
    });
    const stepContext = withSpan(options.trace ?? activeContext(), span);
    const outcome = await runInContext(stepContext, () =>
      guardedCall(
        () => strategy.step(state, context(stepNo)),
        options.signal,
        remainingWallMs(budget, elapsed()),
      ),
    );
    const durationMs = performance.now() - stepStarted;
    if (outcome.kind === "aborted") {
      span.setAttribute(SPAN_ATTRIBUTES.stepOutcome, "aborted");
      span.end();
      return { kind: "aborted", reason: outcome.reason };
    }

    let journal: { outcome: string; data: unknown; turns: number; tokens: number };
    let ending: StepLoopOutcome | undefined;
    let waiting: { wait: CheckedWait; state: unknown } | undefined;
    if (outcome.kind === "wall_exceeded") {
      ending = wallExceeded(`step ${stepNo}`);
      journal = { outcome: BUDGET, data: null, turns: 0, tokens: 0 };
    } else if (outcome.kind === "threw") {
      const { errorClass, message, stack } = describeThrown(outcome.error);
      ending = { kind: "failed", errorClass, message, ...(stack === undefined ? {} : { stack }) };
      journal = { outcome: "error", data: { errorClass, message }, turns: 0, tokens: 0 };
    } else {
      const checked = checkStepResult(outcome.value);
      switch (checked.kind) {
        case "invalid": {
          const errorClass = RUNTIME_ERROR_CLASSES.invalidStepResult;
          ending = { kind: "failed", errorClass, message: checked.message };
          journal = { outcome: "error", data: { errorClass }, turns: 0, tokens: 0 };
          break;
        }
        case "continue":
          state = checked.state;
          journal = { outcome: checked.kind, data: checked.data ?? null, ...usageOf(checked) };
          break;
        case "done":
          ending = { kind: "completed", result: checked.result };
          journal = { outcome: checked.kind, data: checked.data ?? null, ...usageOf(checked) };
          break;
        case "fail": {
          const { errorClass, message } = checked;
          ending = {
            kind: "failed",
            errorClass,
            message,
            ...(checked.retry === false ? { retryable: false as const } : {}),
          };
          journal = { outcome: checked.kind, data: checked.data ?? null, ...usageOf(checked) };
          break;
        }
        case "wait": {
          const next = checked.hasState ? checked.state : state;
          waiting = { wait: checked.wait, state: next };
          journal = { outcome: checked.kind, data: checked.data ?? null, ...usageOf(checked) };
          break;
        }
        default:
          assertNever(checked, "step result");
      }
    }

    span.setAttribute(SPAN_ATTRIBUTES.stepOutcome, journal.outcome);
    span.end();
    if (ending !== undefined) {
      const finalStep = { stepNo, durationMs, ...journal };
      if (ending.kind !== "completed" && ending.kind !== "failed") return ending;
      return { ...ending, finalStep };
    }
    if (waiting !== undefined) {
      const finalStep = { stepNo, durationMs, ...journal };
      return { kind: "waiting", ...waiting, wallUsedMs: elapsed(), finalStep };
    }
    const written = await journalStep(options, { stepNo, durationMs, ...journal });
    if (written === "aborted") return { kind: "aborted", reason: options.signal.reason };
    if (written.kind === "fenced") return { kind: "fenced" };
    usage.turns += journal.turns;
    usage.tokens += journal.tokens;
  }
}

/**
 * The step's journal entry, resent after a transient database error for as long as the claim is
 * held (the signal fires when it is lost or lapses, or the node hard-stops). A resend of an entry
 * that had committed is a no-op: (episode, attempt, step_no) is the insert's conflict target and
 * the usage counters only move with a row actually inserted. `aborted`: the database stayed away
 * until the claim was no longer ours.
 */
async function journalStep(
  options: RunStepLoopOptions,
  step: Omit<PendingStep, "durationMs"> & { durationMs: number },
): Promise<Awaited<ReturnType<typeof appendStep>> | "aborted"> {
  const { episode, logger, telemetry } = options;
  try {
    return await retryTransient(
      () =>
        appendStep(
          {
            episodeId: episode.id,
            fence: options.fence,
            attempt: options.journalAttempt,
            node: options.nodeIdentity,
            telemetry,
            logger,
            ...step,
          },
          options.db,
        ),
      {
        write: "step",
        mayRetry: () => !options.signal.aborted,
        signal: options.signal,
        telemetry,
        logger,
        meta: { episode_id: episode.id, actor_id: episode.actorId, step_no: step.stepNo },
      },
    );
  } catch (error) {
    if (options.signal.aborted) return "aborted";
    throw error;
  }
}

function initFailure(thrown: { errorClass: string; message: string; stack?: string }): {
  errorClass: string;
  message: string;
  stack?: string;
} {
  return { ...thrown, message: `init failed: ${thrown.message}` };
}

function episodeInfo(options: RunStepLoopOptions): EpisodeInfo {
  const { episode } = options;
  return Object.freeze({
    id: episode.id,
    actorId: episode.actorId,
    expectationId: episode.expectationId,
    triggerType: episode.triggerType,
    attempt: episode.attempt,
    dedupeKey: episode.dedupeKey,
    sourceStack: episode.sourceStack,
    sourceEnv: episode.sourceEnv,
    workflowInstanceId: episode.workflowInstanceId,
    workflowStep: episode.workflowStep,
    recovered: options.recovered,
    resume: options.resume,
  });
}

function usageOf(checked: { turns: number; tokens: number }): { turns: number; tokens: number } {
  return { turns: checked.turns, tokens: checked.tokens };
}
