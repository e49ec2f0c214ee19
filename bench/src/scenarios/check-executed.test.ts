import { describe, expect, it } from "vitest";
import { checkExecuted } from "./check-executed";

describe("checkExecuted", () => {
  it("accepts every item exactly once, in any order and across processes", () => {
    expect(checkExecuted([2, 0, 1], 3)).toEqual([]);
  });

  it("reports items run twice and items never run", () => {
    expect(checkExecuted([0, 1, 1, 3], 4)).toEqual([
      "1 items executed more than once (e.g. 1)",
      "1 items never executed",
    ]);
  });

  it("only looks for duplicates in a windowed drain", () => {
    expect(checkExecuted([5, 9], undefined)).toEqual([]);
  });
});
