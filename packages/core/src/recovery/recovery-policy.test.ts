import { describe, expect, it } from "vitest";
import { mapWithConcurrency } from "./map-with-concurrency";
import { policyFromDefinition } from "./recovery-policy";
import { shuffle } from "./shuffle";

describe("policyFromDefinition", () => {
  const expectations = [
    { id: "a", strategy: "s", recoveryPolicy: "restart" },
    { id: "b", strategy: "s", recovery_policy: "restart" },
    { id: "c", strategy: "s" },
    { id: "d", recoveryPolicy: "explode" },
  ];

  it("reads either spelling and defaults a known expectation to fail", () => {
    expect(policyFromDefinition(expectations, "a")).toBe("restart");
    expect(policyFromDefinition(expectations, "b")).toBe("restart");
    expect(policyFromDefinition(expectations, "c")).toBe("fail");
  });

  it("treats unknown or malformed expectations as not found", () => {
    expect(policyFromDefinition(expectations, "d")).toBeUndefined();
    expect(policyFromDefinition(expectations, "zzz")).toBeUndefined();
    expect(policyFromDefinition({ not: "a list" }, "a")).toBeUndefined();
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
