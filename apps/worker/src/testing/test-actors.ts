import { setTimeout as sleep } from "node:timers/promises";
import { defineActor, done, next, type AnyStrategy, type Strategy } from "@cyclium/core";
import { noopStrategy, stepsStrategy } from "@cyclium/core/testing";

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

/** Actors the multi-process tests fire at the worker: same code as production actors. */
export const TEST_ACTOR_IDS = ["alpha", "beta", "gamma"] as const;

export const testStrategies: Record<string, AnyStrategy> = {
  steps: stepsStrategy,
  noop: noopStrategy,
  checkpointed_steps: checkpointedStepsStrategy,
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
];

function customerOf(input: unknown): string {
  const customer = (input as { customer?: unknown } | null)?.customer;
  return typeof customer === "string" ? customer : "none";
}
