import { describe, expect, it } from "vitest";
import { CycliumError } from "../errors/index";
import { planTriggerBreaker, type BreakerFiring } from "./trigger-breaker";
import { defineTrigger } from "./trigger-definition";

const settings = { threshold: 3, halfOpenAfterMs: 10_000, maxHalfOpenAfterMs: 40_000 };
const t0 = Date.parse("2026-12-05T12:00:00Z");
const at = (seconds: number) => new Date(t0 + seconds * 1_000);

/** Firings newest first; `failed(s)` finished s seconds after t0. */
const failed = (s: number): BreakerFiring => ({
  status: "failed",
  insertedAt: at(s - 1),
  finishedAt: at(s),
});
const completed = (s: number): BreakerFiring => ({
  status: "completed",
  insertedAt: at(s - 1),
  finishedAt: at(s),
});
const running = (s: number): BreakerFiring => ({
  status: "running",
  insertedAt: at(s),
  finishedAt: null,
});

describe("planTriggerBreaker", () => {
  it("stays closed below the threshold, and a success resets the count", () => {
    expect(planTriggerBreaker([], at(0), settings)).toMatchObject({
      state: "closed",
      allowsFire: true,
    });
    expect(planTriggerBreaker([failed(3), failed(2)], at(4), settings)).toMatchObject({
      state: "closed",
      consecutiveFailures: 2,
    });
    const afterSuccess = [failed(5), failed(4), completed(3), failed(2), failed(1)];
    expect(planTriggerBreaker(afterSuccess, at(6), settings).state).toBe("closed");
  });

  it("opens at the threshold, then lets one trial through once the wait has passed", () => {
    const history = [failed(3), failed(2), failed(1)];
    expect(planTriggerBreaker(history, at(4), settings)).toEqual({
      state: "open",
      consecutiveFailures: 3,
      halfOpenAt: at(13),
      allowsFire: false,
    });
    expect(planTriggerBreaker(history, at(13), settings)).toMatchObject({
      state: "half_open",
      allowsFire: true,
    });
    // The trial is running: nothing else passes until it ends.
    expect(planTriggerBreaker([running(14), ...history], at(15), settings)).toMatchObject({
      state: "half_open",
      allowsFire: false,
    });
    // It succeeded: closed.
    expect(planTriggerBreaker([completed(16), ...history], at(17), settings).state).toBe("closed");
  });

  it("doubles the wait after each failed trial, up to the cap", () => {
    const waits = [3, 4, 5, 6].map((failures) => {
      const history = Array.from({ length: failures }, (_, i) => failed(100 - i));
      const state = planTriggerBreaker(history, at(100), settings);
      return ((state.halfOpenAt?.getTime() ?? 0) - at(100).getTime()) / 1_000;
    });
    expect(waits).toEqual([10, 20, 40, 40]);
  });

  it("skips a concurrent firing that has not finished among finished ones", () => {
    const history = [failed(5), running(4), failed(3), failed(2)];
    expect(planTriggerBreaker(history, at(6), settings)).toMatchObject({
      state: "open",
      consecutiveFailures: 3,
    });
  });
});

describe("a poll trigger's circuitBreaker option", () => {
  const base = { name: "inbox", on: "triage", poll: () => false, pollIntervalMs: 1_000 };

  it("defaults on, can be tuned or switched off", () => {
    const byDefault = defineTrigger(base);
    expect(byDefault.kind === "poll" && byDefault.circuitBreaker).toEqual({
      threshold: 3,
      halfOpenAfterMs: 10_000,
      maxHalfOpenAfterMs: 300_000,
    });
    const tuned = defineTrigger({ ...base, circuitBreaker: { threshold: 5 } });
    expect(tuned.kind === "poll" && tuned.circuitBreaker?.threshold).toBe(5);
    const off = defineTrigger({ ...base, circuitBreaker: false });
    expect(off.kind === "poll" && off.circuitBreaker).toBeNull();
  });

  it("refuses a cap below the first wait, naming the field", () => {
    const bad = () =>
      defineTrigger({
        ...base,
        circuitBreaker: { halfOpenAfterMs: 60_000, maxHalfOpenAfterMs: 1_000 },
      });
    expect(bad).toThrow(CycliumError);
    expect(bad).toThrow(/maxHalfOpenAfterMs/);
  });
});
