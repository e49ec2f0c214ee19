import { defineActor, type AnyStrategy } from "@cyclium/core/actors";
import { noopStrategy, stepsStrategy } from "@cyclium/core/runtime/testing";

/** Actors the multi-process tests fire at the worker: same code as production actors. */
export const TEST_ACTOR_IDS = ["alpha", "beta", "gamma"] as const;

export const testStrategies: Record<string, AnyStrategy> = {
  steps: stepsStrategy,
  noop: noopStrategy,
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
  defineActor({
    identifier: "slow",
    maxConcurrentEpisodes: 2,
    expectations: [
      { id: "run", strategy: stepsStrategy, trigger: { manual: true }, budget: LONG_RUNNING },
    ],
  }),
];
