import { describe, expect, it } from "vitest";
import { mapWithConcurrency } from "./map-with-concurrency";
import { policyFromDefinition } from "./policy-from-definition";
import { shuffle } from "./shuffle";

describe("policyFromDefinition", () => {
  const row = (expectations: unknown) => ({
    identifier: "dyn",
    max_concurrent_episodes: 4,
    stacks: [],
    expectations,
  });
  const manual = { manual: true };
  const valid = row([
    { id: "a", strategy: "s", trigger: manual, recoveryPolicy: "restart" },
    { id: "c", strategy: "s", trigger: manual },
  ]);

  it("reads the loader's spelling and defaults a known expectation to fail", () => {
    expect(policyFromDefinition(valid, "a")).toBe("restart");
    expect(policyFromDefinition(valid, "c")).toBe("fail");
    expect(policyFromDefinition(valid, "zzz")).toBeUndefined();
  });

  it("treats a row the loader skips as unknown, so its orphans fail instead of waiting", () => {
    const snake = row([{ id: "b", strategy: "s", trigger: manual, recovery_policy: "restart" }]);
    expect(policyFromDefinition(snake, "b")).toBeUndefined();
    const badPolicy = row([{ id: "d", strategy: "s", trigger: manual, recoveryPolicy: "x" }]);
    expect(policyFromDefinition(badPolicy, "d")).toBeUndefined();
    expect(policyFromDefinition(row({ not: "a list" }), "a")).toBeUndefined();
  });
});

describe("shuffle", () => {
  it("permutes a copy, differently per random source", () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const a = shuffle(items);
    const b = shuffle(items);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(items[0]).toBe(0);
    expect(a).not.toEqual(b);
    let seed = 1;
    const seeded = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    expect(shuffle([1, 2, 3, 4], seeded)).toHaveLength(4);
  });
});

describe("mapWithConcurrency", () => {
  it("keeps order and never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const result = await mapWithConcurrency([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return n * 10;
    });
    expect(result).toEqual([50, 10, 40, 20, 30]);
    expect(peak).toBe(2);
  });
});
