import { describe, expect, it } from "vitest";
import { formatDuration, formatLatency } from "./format-duration";

describe("formatDuration", () => {
  it.each([
    [0, "< 1 s"],
    [999, "< 1 s"],
    [1_000, "1 s"],
    [59_999, "59 s"],
    [60_000, "1 min"],
    [3_599_999, "59 min"],
    [3_600_000, "1 h"],
    [3_600_000 + 5 * 60_000, "1 h 5 min"],
    [86_400_000, "1 d"],
    [2 * 86_400_000 + 4 * 3_600_000, "2 d 4 h"],
    [Number.NaN, "< 1 s"],
  ])("formats %d ms as %s", (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe("formatLatency", () => {
  it.each([
    [0, "0 ms"],
    [849.6, "850 ms"],
    [2_500, "2.5 s"],
    [38_500, "39 s"],
    [90_000, "1 min"],
    [Number.NaN, ""],
  ])("formats %d ms as %s", (ms, expected) => {
    expect(formatLatency(ms)).toBe(expected);
  });
});
