import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { done, next, type Strategy } from "../../actors/index";

/** One step, done at once: the unit of the throughput benchmark. */
export const noopStrategy: Strategy<unknown, null> = {
  init: () => null,
  step: () => done({ ok: true }),
};

const ZStepsInput = z
  .object({
    /** Steps before done; 0 = never done (until a budget, the claim or the node stops it). */
    steps: z.number().int().min(0).default(3),
    stepMs: z.number().int().min(0).default(0),
    tokensPerStep: z.number().int().min(0).default(0),
  })
  .catch({ steps: 3, stepMs: 0, tokensPerStep: 0 });

interface StepsState {
  done: number;
  steps: number;
  stepMs: number;
  tokensPerStep: number;
}

/**
 * `steps` steps of `stepMs` each (input `{ steps, stepMs, tokensPerStep }`), each waiting on
 * `ctx.signal`, then done with the count. The long-episode strategy of the shutdown tests.
 */
export const stepsStrategy: Strategy<unknown, StepsState, { steps: number }> = {
  init: (_ctx, input) => ({ done: 0, ...ZStepsInput.parse(input) }),
  step: async (state, ctx) => {
    if (state.stepMs > 0) await sleep(state.stepMs, undefined, { signal: ctx.signal });
    const usage = { turns: 1, tokens: state.tokensPerStep };
    const progressed = { ...state, done: state.done + 1 };
    if (state.steps > 0 && progressed.done >= state.steps)
      return done({ steps: progressed.done }, usage);
    return next(progressed, usage, { done: progressed.done });
  },
};

/** Throws from `step` with a `code`, to check the error class and message kept on the episode. */
export const throwingStrategy: Strategy<unknown, null> = {
  init: () => null,
  step: () => {
    throw Object.assign(new Error("upstream said no"), { code: "upstream_unavailable" });
  },
};
