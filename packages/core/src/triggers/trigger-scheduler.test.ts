import { describe, expect, it } from "vitest";
import { nextDueInMs } from "./trigger-scheduler";
import type { TriggerRow } from "./trigger-row";

const now = new Date("2026-12-05T12:00:00.000Z");
const row = (nextFireAt: string | null, paused = false) =>
  ({ next_fire_at: nextFireAt === null ? null : new Date(nextFireAt), paused }) as TriggerRow;

describe("nextDueInMs", () => {
  it("waits for the earliest unpaused row, a few ms past its instant", () => {
    const rows = [row("2026-12-05T12:05:00.000Z"), row("2026-12-05T12:00:10.000Z")];
    expect(nextDueInMs(rows, now)).toBe(10_005);
  });

  it("reads again at once for a row never claimed or overdue", () => {
    expect(nextDueInMs([row(null)], now)).toBe(0);
    expect(nextDueInMs([row("2026-12-05T11:59:00.000Z")], now)).toBe(0);
  });

  it("ignores paused rows, and has nothing to wait for without rows", () => {
    expect(nextDueInMs([row("2026-12-05T12:00:01.000Z", true)], now)).toBeUndefined();
    expect(nextDueInMs([], now)).toBeUndefined();
  });
});
