import { defineActor, defineDeployment, done, type Strategy } from "@cyclium/core";
import { itemOf } from "../systems/consumer";
import { BENCH_ACTOR_ID, BENCH_EXPECTATION_ID } from "../systems/cyclium/actor";

/** The actor whose episodes the victim node leaves running when it is killed. */
export const ORPHAN_ACTOR_ID = "bench_orphan";
export const ORPHAN_EXPECTATION_ID = "hang";

export interface ScaleHooks {
  /** A bench_actor episode ran (drain items and NOTIFY probe fires alike). */
  executed(item: number): void;
  /** The victim entered an orphan's step, which then never returns. */
  hung(item: number): void;
  /** A recovered orphan ran to its end on a surviving node. */
  recovered(item: number): void;
}

/**
 * What every node of `--scale` runs: the bench's no-op actor (the drain's seed and the cyclium
 * system's check use its ids), and an actor whose step hangs on the victim node, so that killing
 * that node leaves its episodes running with nobody behind them, and finishes anywhere else.
 */
export function scaleDeployment(options: { victim: boolean; slots: number; hooks: ScaleHooks }) {
  const { hooks } = options;
  const noop: Strategy<unknown, null> = {
    init(_ctx, input) {
      hooks.executed(itemOf(input));
      return null;
    },
    step: () => done(),
  };
  const hang: Strategy<unknown, { n: number }> = {
    init: (_ctx, input) => ({ n: itemOf(input) }),
    step(state) {
      if (!options.victim) {
        hooks.recovered(state.n);
        return done();
      }
      hooks.hung(state.n);
      return new Promise<never>(() => undefined);
    },
  };
  return defineDeployment({
    actors: [
      defineActor({
        identifier: BENCH_ACTOR_ID,
        maxConcurrentEpisodes: options.slots,
        expectations: [{ id: BENCH_EXPECTATION_ID, strategy: noop, trigger: { manual: true } }],
      }),
      defineActor({
        identifier: ORPHAN_ACTOR_ID,
        maxConcurrentEpisodes: options.victim ? 1_000 : options.slots,
        expectations: [
          {
            id: ORPHAN_EXPECTATION_ID,
            strategy: hang,
            trigger: { manual: true },
            // The default, fail, would end the orphans without running them again.
            recoveryPolicy: "restart",
          },
        ],
      }),
    ],
  });
}
