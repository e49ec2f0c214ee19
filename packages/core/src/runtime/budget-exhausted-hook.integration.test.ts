import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { next, type Strategy } from "../actors/index";
import { useHostSuite } from "./testing/host-suite";

// SPEC 12 budget accounting: usage on the episode, checked before every step; the optional
// onBudgetExhausted hook may end gracefully for turns and tokens, never for wall time.
const { startHost, actor, fired, settled } = useHostSuite();

const offered: string[] = [];
const endless = (stepMs: number): Strategy<unknown, { steps: number }> => ({
  init: () => ({ steps: 0 }),
  step: async (state, ctx) => {
    if (stepMs > 0) await sleep(stepMs, undefined, { signal: ctx.signal });
    return next({ steps: state.steps + 1 }, { turns: 1, tokens: 40 });
  },
  onBudgetExhausted: (state, _ctx, exhausted) => {
    offered.push(exhausted.budget);
    return { done: true, result: { partial: true, steps: state.steps } };
  },
});

describe("onBudgetExhausted", () => {
  it("completes gracefully when the turn or token budget runs out", async () => {
    const { host } = startHost([
      actor("turns", endless(0), {}, { maxTurns: 2 }),
      actor("tokens", endless(0), {}, { maxTokens: 100 }),
    ]);
    const turns = await settled(await fired(host, "turns"));
    expect(turns).toMatchObject({
      status: "completed",
      turns_used: 2,
      tokens_used: "80",
      result: { partial: true, steps: 2 },
    });
    const tokens = await settled(await fired(host, "tokens"));
    expect(tokens).toMatchObject({ status: "completed", turns_used: 3, tokens_used: "120" });
    expect(offered).toEqual(["turns", "tokens"]);
  });

  it("is never offered wall time: the episode fails with budget_exceeded", async () => {
    const { host } = startHost([actor("wall", endless(40), {}, { maxWallMs: 100 })]);
    const wall = await settled(await fired(host, "wall"));
    expect(wall).toMatchObject({ status: "failed", error_class: "budget_exceeded" });
    expect(offered).toEqual(["turns", "tokens"]);
  });
});
