import { describe, expect, it } from "vitest";
import { ZRetry } from "../actors/index";
import { retryDelayMs } from "./retry-backoff";

const policy = ZRetry.parse({ maxAttempts: 5, backoff: { initialMs: 1_000, maxMs: 6_000 } });

describe("retryDelayMs", () => {
  it("doubles from initialMs, caps at maxMs, and draws between half and all of it", () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(policy, attempt, true, () => 1))).toEqual([
      1_000, 2_000, 4_000, 6_000,
    ]);
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(policy, attempt, true, () => 0))).toEqual([
      500, 1_000, 2_000, 3_000,
    ]);
  });

  it("is final at maxAttempts, without a policy, and for fail(..., { retry: false })", () => {
    expect(retryDelayMs(policy, 5, true)).toBeUndefined();
    expect(retryDelayMs(undefined, 1, true)).toBeUndefined();
    expect(retryDelayMs(policy, 1, false)).toBeUndefined();
    expect(ZRetry.parse({ maxAttempts: 3 }).backoff).toEqual({
      initialMs: 1_000,
      maxMs: 300_000,
      factor: 2,
    });
  });
});
