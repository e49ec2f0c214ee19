import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { CronSchedule } from "./cron-schedule";
import {
  defineCronSchedule,
  defineTrigger,
  pollDecision,
  TriggerResult,
} from "./trigger-definition";

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(isCycliumError(error, "invalid_config")).toBe(true);
    return (error as Error).message;
  }
  throw new Error("expected an invalid_config error");
}

describe("defineTrigger", () => {
  it("rejects invalid cron expressions and unknown time zones with a clear error", () => {
    expect(configError(() => defineTrigger({ name: "t", on: "w", cron: "61 * * * *" }))).toMatch(
      /Invalid cron expression "61 \* \* \* \*".*minute/,
    );
    expect(configError(() => defineTrigger({ name: "t", on: "w", cron: "every day" }))).toMatch(
      /Invalid cron expression "every day"/,
    );
    expect(configError(() => defineTrigger({ name: "t", on: "w", cron: "0 0 30 2 *" }))).toMatch(
      /never fires/,
    );
    expect(
      configError(() =>
        defineTrigger({ name: "t", on: "w", cron: "0 9 * * *", timezone: "Mars/Olympus" }),
      ),
    ).toMatch(/Unknown time zone "Mars\/Olympus"/);
  });

  it("rejects bad names, intervals and stray options", () => {
    expect(configError(() => defineTrigger({ name: "", on: "w", cron: "* * * * *" }))).toMatch(
      /Invalid trigger/,
    );
    expect(
      configError(() =>
        defineTrigger({ name: "t", on: "w", poll: () => true, pollIntervalMs: 10 }),
      ),
    ).toMatch(/pollIntervalMs/);
  });

  it("applies defaults; a plain cron schedule binds one workflow", () => {
    const cron = defineTrigger({ name: "nightly", on: "report", cron: "0 2 * * *" });
    expect(cron).toMatchObject({ kind: "cron", catchUp: "skip", fanOut: true });
    const poll = defineTrigger({
      name: "p",
      on: "w",
      poll: () => TriggerResult.skip(),
      pollIntervalMs: 500,
    });
    expect(poll).toMatchObject({ kind: "poll", allowConcurrent: false, fanOut: true });
    const schedule = defineCronSchedule({
      workflow: "report",
      cron: "0 2 * * *",
      timezone: "Europe/Paris",
    });
    expect(schedule).toMatchObject({ name: "schedule:report", on: "report", fanOut: false });
  });
});

describe("pollDecision", () => {
  it("reads booleans and the TriggerResult helpers; anything else is no decision", () => {
    expect(pollDecision(true)).toEqual({ kind: "fire" });
    expect(pollDecision(false)).toEqual({ kind: "skip" });
    expect(pollDecision(TriggerResult.fire({ host: "web-1" }))).toEqual({
      kind: "fire",
      context: { host: "web-1" },
    });
    expect(pollDecision(TriggerResult.skip())).toEqual({ kind: "skip" });
    for (const raw of [undefined, null, 1, "yes", { fire: true }, { kind: "fire", context: 3 }]) {
      expect(pollDecision(raw)).toBeUndefined();
    }
  });
});

describe("CronSchedule", () => {
  it("follows DST in the trigger's time zone", () => {
    const berlin = CronSchedule.parse("0 9 * * *", "Europe/Berlin");
    // Clocks go forward on 29 March 2026: 09:00 is 08:00Z before, 07:00Z after.
    expect(berlin.nextAfter(new Date("2026-03-28T00:00:00Z"))?.toISOString()).toBe(
      "2026-03-28T08:00:00.000Z",
    );
    expect(berlin.nextAfter(new Date("2026-03-28T08:00:00Z"))?.toISOString()).toBe(
      "2026-03-29T07:00:00.000Z",
    );
    const newYork = CronSchedule.parse("30 1 * * *", "America/New_York");
    // 01:30 happens twice on 1 November 2026; the trigger fires once.
    const fall = new Date("2026-11-01T00:00:00Z");
    const first = newYork.nextAfter(fall);
    expect(first?.toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(newYork.nextAfter(first as Date)?.toISOString()).toBe("2026-11-02T06:30:00.000Z");
  });

  it("finds the newest window at or before an instant", () => {
    const daily = CronSchedule.parse("0 9 * * *", "UTC");
    expect(daily.latestAtOrBefore(new Date("2026-03-30T09:00:00Z"))?.toISOString()).toBe(
      "2026-03-30T09:00:00.000Z",
    );
    expect(daily.latestAtOrBefore(new Date("2026-03-30T08:59:59Z"))?.toISOString()).toBe(
      "2026-03-29T09:00:00.000Z",
    );
  });
});
