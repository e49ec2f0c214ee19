import { describe, expect, it } from "vitest";
import { median, percentile } from "./stats";

describe("percentile", () => {
  it("interpolates between closest ranks and ignores order and non-finite values", () => {
    expect(percentile([4, 1, 3, 2], 50)).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5], 99)).toBeCloseTo(4.96);
    expect(percentile([10], 95)).toBe(10);
    expect(median([3, Number.NaN, 1, 2])).toBe(2);
    expect(median([])).toBeNaN();
  });
});
