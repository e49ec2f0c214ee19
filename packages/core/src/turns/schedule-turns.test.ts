import { afterEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../telemetry/index";
import { MemoryExpectationTurns } from "./expectation-turn-store";
import { ScheduleTurns } from "./expectation-turns";

afterEach(() => {
  vi.useRealTimers();
});

function collect(schedule: string, timezone: string, start: string) {
  vi.useFakeTimers({ now: new Date(start) });
  const fired: string[] = [];
  // One store for the node: the claimed-turn rules in memory (PostgreSQL's are the same SQL rule).
  const timer = new ScheduleTurns({
    key: { actorId: "a", expectationId: "e", env: null },
    store: new MemoryExpectationTurns(),
    isActive: () => true,
    schedule,
    timezone,
    logger: silentLogger,
    onFire: (at) => {
      fired.push(at.toISOString());
      return Promise.resolve();
    },
  });
  timer.start();
  return { fired, timer };
}

describe("ScheduleTurns", () => {
  it("fires each scheduled instant once, passing the instant rather than the wake-up time", async () => {
    const { fired, timer } = collect("*/5 * * * *", "UTC", "2026-11-29T10:03:10Z");
    expect(timer.nextFireAt?.toISOString()).toBe("2026-11-29T10:05:00.000Z");
    await vi.advanceTimersByTimeAsync(12 * 60_000);
    expect(fired).toEqual([
      "2026-11-29T10:05:00.000Z",
      "2026-11-29T10:10:00.000Z",
      "2026-11-29T10:15:00.000Z",
    ]);
    timer.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(fired).toHaveLength(3);
  });

  it("reads the expression in its IANA zone across a DST change", async () => {
    // Europe/Paris leaves summer time on 2026-10-25: 09:00 local is 07:00Z before, 08:00Z after.
    const { fired, timer } = collect("0 9 * * *", "Europe/Paris", "2026-10-24T12:00:00Z");
    await vi.advanceTimersByTimeAsync(3 * 24 * 60 * 60_000);
    timer.stop();
    expect(fired).toEqual([
      "2026-10-25T08:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
      "2026-10-27T08:00:00.000Z",
    ]);
  });

  it("waits in hops for instants weeks away (setTimeout cannot hold more than ~24.8 days)", async () => {
    const { fired, timer } = collect("0 0 1 1 *", "UTC", "2026-11-29T00:00:00Z");
    expect(timer.nextFireAt?.toISOString()).toBe("2027-01-01T00:00:00.000Z");
    await vi.advanceTimersByTimeAsync(34 * 24 * 60 * 60_000);
    timer.stop();
    expect(fired).toEqual(["2027-01-01T00:00:00.000Z"]);
  });
});
