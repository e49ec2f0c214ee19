import { setTimeout as sleep } from "node:timers/promises";
import { done, fail, next, wait, waitFor, type Strategy } from "@cyclium/core";
import { z } from "zod";
import type { HistoryWriter } from "../history/history-writer";

/**
 * What a fire asks of the strategy. `keepRunning` makes the strategy ignore its AbortSignal, the
 * way code that never looks at the signal behaves: the runner alone must then stop the episode
 * (and fence its writes) when the claim is lost while the strategy carries on.
 */
export const ZRunInput = z
  .object({
    steps: z.number().int().min(1).max(1_000).default(3),
    stepMs: z.number().int().min(0).max(60_000).default(20),
    keepRunning: z.boolean().default(false),
    /** Attempts up to this one fail at their first step (a retry is scheduled); 0: none. */
    failUntilAttempt: z.number().int().min(0).max(10).default(0),
    /**
     * After the first step, a durable wait (SPEC 17) of this long: a sleep, or with `waitSignal`
     * a `waitFor` of that signal timing out after it. 0: none.
     */
    waitMs: z.number().int().min(0).max(600_000).default(0),
    waitSignal: z.string().min(1).optional(),
  })
  .catch({ steps: 3, stepMs: 20, keepRunning: false, failUntilAttempt: 0, waitMs: 0 });

export type TRunInput = z.input<typeof ZRunInput>;

interface RunState {
  done: number;
  steps: number;
  stepMs: number;
  keepRunning: boolean;
  failUntilAttempt: number;
  waitMs: number;
  waitSignal?: string | undefined;
  waited?: boolean;
}

/** What a completed episode stores as its result: who produced it, so the checker can compare. */
export interface RunResult {
  node: string;
  steps: number;
}

function describeReason(reason: unknown): string {
  if (reason instanceof Error) {
    const code = (reason as { code?: unknown }).code;
    return typeof code === "string" ? code : reason.name;
  }
  return String(reason);
}

/**
 * A step loop of `steps` steps of `stepMs` each that records every step it begins and finishes
 * in the process's history, and the moment its AbortSignal fires. The journal (written by the
 * runner after each step, fenced) says which of those steps counted; the history says which ran.
 */
export function recordedStrategy(
  history: HistoryWriter,
  node: string,
): Strategy<unknown, RunState, RunResult> {
  return {
    init: (ctx, input) => {
      const { episode } = ctx;
      history.write({
        op: "run",
        episodeId: episode.id,
        attempt: episode.attempt,
        recovered: episode.recovered,
      });
      ctx.signal.addEventListener(
        "abort",
        () =>
          history.write({
            op: "abort",
            episodeId: episode.id,
            reason: describeReason(ctx.signal.reason),
          }),
        { once: true },
      );
      return { done: 0, ...ZRunInput.parse(input) };
    },
    step: async (state, ctx) => {
      const record = {
        episodeId: ctx.episode.id,
        attempt: ctx.episode.attempt,
        stepNo: ctx.stepNo,
      };
      history.write({ op: "step", type: "invoke", ...record });
      if (state.stepMs > 0) {
        await sleep(state.stepMs, undefined, state.keepRunning ? {} : { signal: ctx.signal });
      }
      history.write({ op: "step", type: "ok", ...record });
      if (ctx.episode.attempt <= state.failUntilAttempt) {
        return fail("flaky", `fails until attempt ${state.failUntilAttempt}`);
      }
      const progressed = { ...state, done: state.done + 1 };
      if (progressed.done >= state.steps) return done({ node, steps: progressed.done });
      if (state.waitMs > 0 && state.waited !== true) {
        const parked = { ...progressed, waited: true };
        history.write({ op: "wait", ...record });
        return state.waitSignal === undefined
          ? wait({ ms: state.waitMs, state: parked })
          : waitFor({ signal: state.waitSignal, timeoutMs: state.waitMs, state: parked });
      }
      return next(progressed, { turns: 1 }, { done: progressed.done });
    },
  };
}
