import { afterEach, describe, expect, it, vi } from "vitest";
import { startRepeatAfterRun } from "./repeat-after-run";

describe("startRepeatAfterRun", () => {
  afterEach(() => vi.useRealTimers());

  it("runs again after againMs while a run answers again, then back on its interval", async () => {
    vi.useFakeTimers();
    const answers: ("again" | undefined)[] = ["again", "again", undefined, undefined];
    let runs = 0;
    const repeating = startRepeatAfterRun({
      delayMs: 0,
      intervalMs: 60_000,
      againMs: 1_000,
      run: () => Promise.resolve(answers[runs++]),
      onFailed: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(3); // two "again" answers: one second each
    await vi.advanceTimersByTimeAsync(50_000);
    expect(runs).toBe(3); // the third answered nothing: the interval (60 s +- 10 %) applies
    await vi.advanceTimersByTimeAsync(20_000);
    expect(runs).toBe(4);
    await repeating.stop();
  });

  it("keeps its schedule after a failed run", async () => {
    vi.useFakeTimers();
    const failures: unknown[] = [];
    let runs = 0;
    const repeating = startRepeatAfterRun({
      delayMs: 0,
      intervalMs: 1_000,
      run: () => {
        runs += 1;
        return Promise.reject(new Error("database down"));
      },
      onFailed: (error) => failures.push(error),
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(failures).toHaveLength(runs);
    await repeating.stop();
  });
});
