import { describe, expect, it } from "vitest";
import { ActorRegistry, defineActor, StrategyRegistry } from "../actors/index";
import { limitedRequestsOf } from "./limited-requests";
import { stepsStrategy } from "./testing/index";

const run = { id: "run", strategy: stepsStrategy, trigger: { manual: true } } as const;

describe("limitedRequestsOf", () => {
  it("names the limited actors, their rules and how many one call may take", () => {
    const registry = new ActorRegistry({
      strategies: new StrategyRegistry({}),
      actors: [
        defineActor({ identifier: "free", expectations: [run] }),
        defineActor({ identifier: "llm", concurrency: { global: 5 }, expectations: [run] }),
        defineActor({
          identifier: "per_customer",
          expectations: [{ ...run, concurrency: { perKey: { key: () => "acme", limit: 1 } } }],
        }),
      ],
    });
    const limited = limitedRequestsOf(registry);
    expect(limited.actorIds).toEqual(["llm", "per_customer"]);
    expect(limited.capFor?.("llm")).toBe(5);
    expect(limited.capFor?.("per_customer")).toBeUndefined();
    const episode = { actorId: "per_customer", expectationId: "run", sourceEnv: null, input: {} };
    expect(limited.rulesFor(episode)).toEqual([
      { k: "key:/per_customer/run:acme", c: "concurrency", l: 1 },
    ]);
  });
});
