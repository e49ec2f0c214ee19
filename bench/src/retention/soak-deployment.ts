import { defineActor, defineDeployment, done, next, type Strategy } from "@cyclium/core";

// The soak's work: three journaled steps and a checkpoint, like a small real episode.
const threeSteps: Strategy<unknown, { n: number }> = {
  init: () => ({ n: 0 }),
  step: async (state, ctx) => {
    if (state.n === 1) await ctx.checkpoint("middle", state);
    return state.n >= 2 ? done({ steps: state.n + 1 }) : next({ n: state.n + 1 });
  },
};

export const soakDeployment = defineDeployment({
  actors: [
    defineActor({
      identifier: "soak",
      maxConcurrentEpisodes: 16,
      expectations: [{ id: "run", strategy: threeSteps, trigger: { manual: true } }],
    }),
  ],
});
