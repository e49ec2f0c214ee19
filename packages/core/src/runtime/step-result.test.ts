import { describe, expect, it } from "vitest";
import { done, fail, next } from "../actors/index";
import { exhaustedBudget, remainingWallMs } from "./budget-check";
import { describeThrown } from "./error-classes";
import { checkStepResult } from "./step-result";

describe("checkStepResult", () => {
  it("normalises the three outcomes, counting one turn per step by default", () => {
    expect(checkStepResult(next({ n: 1 }))).toMatchObject({
      kind: "continue",
      state: { n: 1 },
      turns: 1,
      tokens: 0,
    });
    expect(checkStepResult(done("r", { turns: 2, tokens: 30 }))).toMatchObject({
      kind: "done",
      result: "r",
      turns: 2,
      tokens: 30,
    });
    expect(checkStepResult(fail("quota", "no more"))).toMatchObject({
      kind: "fail",
      errorClass: "quota",
      message: "no more",
    });
  });

  it("never reads { done: true } as a continue, and rejects ambiguous or malformed results", () => {
    expect(checkStepResult({ done: true, result: 1 })).toMatchObject({ kind: "done" });
    expect(checkStepResult({ done: true, continue: 1 })).toMatchObject({ kind: "invalid" });
    expect(checkStepResult(undefined)).toMatchObject({ kind: "invalid" });
    expect(checkStepResult({ fail: true })).toMatchObject({ kind: "invalid" });
    expect(checkStepResult({ continue: 1, usage: { tokens: -1 } })).toMatchObject({
      kind: "invalid",
    });
  });
});

describe("budgets", () => {
  it("are exhausted once usage reaches them", () => {
    expect(exhaustedBudget({ maxTurns: 3 }, { turns: 2, tokens: 0, elapsedMs: 0 })).toBeNull();
    expect(exhaustedBudget({ maxTurns: 3 }, { turns: 3, tokens: 0, elapsedMs: 0 })).toContain(
      "turn budget",
    );
    expect(exhaustedBudget({ maxTokens: 100 }, { turns: 9, tokens: 120, elapsedMs: 0 })).toContain(
      "120 of 100 tokens",
    );
    expect(exhaustedBudget({ maxWallMs: 50 }, { turns: 0, tokens: 0, elapsedMs: 60 })).toContain(
      "wall-time",
    );
    expect(exhaustedBudget({}, { turns: 1e6, tokens: 1e9, elapsedMs: 1e9 })).toBeNull();
    expect(remainingWallMs({ maxWallMs: 50 }, 20)).toBe(30);
    expect(remainingWallMs({}, 20)).toBe(Infinity);
  });
});

describe("describeThrown", () => {
  it("prefers a string code, then the error's name", () => {
    expect(
      describeThrown(Object.assign(new Error("nope"), { code: "quota_exceeded" })),
    ).toMatchObject({
      errorClass: "quota_exceeded",
      message: "nope",
    });
    expect(describeThrown(new TypeError("bad"))).toMatchObject({
      errorClass: "TypeError",
      message: "bad",
    });
    expect(describeThrown("just a string")).toEqual({
      errorClass: "thrown_value",
      message: "just a string",
    });
  });

  it("keeps an Error's stack, clipped, for the attempt's error; a thrown value has none", () => {
    const error = new Error("nope");
    expect(describeThrown(error).stack).toBe(error.stack);
    error.stack = `Error: nope\n${"    at frame (file.ts:1:1)\n".repeat(2_000)}`;
    expect(describeThrown(error).stack).toHaveLength(16_000);
    expect(describeThrown({ any: "value" }).stack).toBeUndefined();
  });
});
