import { setTimeout as sleep } from "node:timers/promises";
import {
  defineActor,
  done,
  next,
  wait,
  waitFor,
  type AnyStrategy,
  type Strategy,
} from "@cyclium/core";
import { noopStrategy, stepsStrategy } from "@cyclium/core/testing";
import { z } from "zod";

interface CheckpointedState {
  done: number;
  steps: number;
  stepMs: number;
}

/**
 * `steps` steps of `stepMs` each (input `{ steps, stepMs }`); each step writes its side effect
 * through the exactly-once output API (key `step:{episode}:{n}`) and checkpoints, so a run handed
 * to another node resumes after the last finished step. The deploy tests count those outputs.
 */
export const checkpointedStepsStrategy: Strategy<unknown, CheckpointedState, { steps: number }> = {
  init: (_ctx, input) => {
    const { steps = 5, stepMs = 200 } = (input ?? {}) as { steps?: number; stepMs?: number };
    return { done: 0, steps, stepMs };
  },
  step: async (state, ctx) => {
    await sleep(state.stepMs, undefined, { signal: ctx.signal });
    const n = state.done + 1;
    await ctx.output(`step:${ctx.episode.id}:${n}`, { step: n, attempt: ctx.episode.attempt });
    const progressed = { ...state, done: n };
    await ctx.checkpoint(`step-${n}`, progressed);
    if (n >= state.steps) return done({ steps: n });
    return next(progressed, {}, { done: n });
  },
};

interface SleeperState {
  n: number;
  sleepMs: number;
  slept: boolean;
}

/**
 * Sleeps `sleepMs` (input `{ n, sleepMs }`) in its first step and completes in its second with
 * the state it resumed from: the waits tests check that state came back intact, and count the
 * journal's second steps to see each episode resumed exactly once.
 */
export const sleeperStrategy: Strategy<unknown, SleeperState, unknown> = {
  init: (_ctx, input) => {
    const { n = 0, sleepMs = 2_000 } = (input ?? {}) as { n?: number; sleepMs?: number };
    return { n, sleepMs, slept: false };
  },
  step: (state, ctx) => {
    if (!state.slept) return wait({ ms: state.sleepMs, state: { ...state, slept: true } });
    return done({ n: state.n, slept: state.slept, wakeup: ctx.wakeup?.kind ?? null });
  },
};

/** Waits for `approval` (input `{ timeoutMs }`) and completes with what woke it. */
export const approvalStrategy: Strategy<unknown, { asked: boolean; timeoutMs: number }, unknown> = {
  init: (_ctx, input) => {
    const { timeoutMs = 60_000 } = (input ?? {}) as { timeoutMs?: number };
    return { asked: false, timeoutMs };
  },
  step: (state, ctx) => {
    if (!state.asked) {
      return waitFor({
        signal: "approval",
        timeoutMs: state.timeoutMs,
        state: { ...state, asked: true },
      });
    }
    return done({ asked: state.asked, wakeup: ctx.wakeup ?? null });
  },
};

export const ZApproval = z.strictObject({
  approved: z.boolean(),
  comment: z.string().min(1),
});

/** Actors the multi-process tests fire at the worker: same code as production actors. */
export const TEST_ACTOR_IDS = ["alpha", "beta", "gamma"] as const;

export const testStrategies: Record<string, AnyStrategy> = {
  steps: stepsStrategy,
  noop: noopStrategy,
  checkpointed_steps: checkpointedStepsStrategy,
  sleeper: sleeperStrategy,
  approval: approvalStrategy,
};

// The shutdown tests run endless step loops (steps: 0) until the worker stops them.
const LONG_RUNNING = { maxTurns: 1_000_000 };

export const testActors = [
  ...TEST_ACTOR_IDS.map((identifier) =>
    defineActor({
      identifier,
      maxConcurrentEpisodes: 4,
      expectations: [
        { id: "run", strategy: stepsStrategy, trigger: { manual: true }, budget: LONG_RUNNING },
        { id: "on_ping", strategy: noopStrategy, trigger: { event: `test.${identifier}.ping` } },
      ],
    }),
  ),
  // Handed back on a stop and resumed elsewhere from its checkpoint (recovery policy restart).
  defineActor({
    identifier: "resumable",
    maxConcurrentEpisodes: 4,
    expectations: [
      {
        id: "run",
        strategy: checkpointedStepsStrategy,
        trigger: { manual: true },
        recoveryPolicy: "restart",
        budget: LONG_RUNNING,
      },
    ],
  }),
  // The default recovery policy (fail): handed back only because it checkpoints every step.
  defineActor({
    identifier: "resumable_fail",
    maxConcurrentEpisodes: 4,
    expectations: [
      {
        id: "run",
        strategy: checkpointedStepsStrategy,
        trigger: { manual: true },
        budget: LONG_RUNNING,
      },
    ],
  }),
  defineActor({
    identifier: "slow",
    maxConcurrentEpisodes: 2,
    expectations: [
      { id: "run", strategy: stepsStrategy, trigger: { manual: true }, budget: LONG_RUNNING },
    ],
  }),
  // Cluster-wide limits (SPEC section 16), each on top of 4 slots per worker.
  defineActor({
    identifier: "limited_global",
    maxConcurrentEpisodes: 4,
    concurrency: { global: 5 },
    expectations: [{ id: "run", strategy: stepsStrategy, trigger: { manual: true } }],
  }),
  defineActor({
    identifier: "limited_key",
    maxConcurrentEpisodes: 4,
    expectations: [
      {
        id: "run",
        strategy: stepsStrategy,
        trigger: { manual: true },
        concurrency: { perKey: { key: (input) => customerOf(input), limit: 1 } },
      },
    ],
  }),
  defineActor({
    identifier: "limited_rate",
    maxConcurrentEpisodes: 8,
    rateLimit: { limit: 20, periodMs: 1_000 },
    expectations: [{ id: "run", strategy: stepsStrategy, trigger: { manual: true } }],
  }),
  // Durable waits (SPEC 17): 4 slots per node, so 1,000 sleeping at once cannot be holding them.
  defineActor({
    identifier: "sleeper",
    maxConcurrentEpisodes: 4,
    expectations: [{ id: "run", strategy: sleeperStrategy, trigger: { manual: true } }],
  }),
  defineActor({
    identifier: "approver",
    maxConcurrentEpisodes: 4,
    expectations: [
      {
        id: "run",
        strategy: approvalStrategy,
        trigger: { manual: true },
        signals: { approval: ZApproval },
      },
    ],
  }),
];

function customerOf(input: unknown): string {
  const customer = (input as { customer?: unknown } | null)?.customer;
  return typeof customer === "string" ? customer : "none";
}
