import { afterEach, describe, expect, it, vi } from "vitest";
import { jitteredDelay, startJitteredInterval } from "./jittered-interval";

describe("jitteredInterval", () => {
  afterEach(() => vi.useRealTimers());

  it("draws every wait within 10 % of the interval", () => {
    const waits = Array.from({ length: 1_000 }, () => jitteredDelay(5_000));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(4_500);
    expect(Math.max(...waits)).toBeLessThanOrEqual(5_500);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  it("ticks about once per interval until stopped", () => {
    vi.useFakeTimers();
    let ticks = 0;
    const interval = startJitteredInterval(() => (ticks += 1), 1_000);
    vi.advanceTimersByTime(10_000);
    expect(ticks).toBeGreaterThanOrEqual(9);
    expect(ticks).toBeLessThanOrEqual(11);
    interval.stop();
    vi.advanceTimersByTime(10_000);
    expect(ticks).toBeLessThanOrEqual(11);
  });
});
