import { describe, expect, it } from "vitest";
import { findInputProblem, MAX_INPUT_DEPTH } from "./untrusted-input";

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

describe("findInputProblem", () => {
  it("accepts ordinary input", () => {
    expect(findInputProblem({ name: "check", env: null, items: [1, "two", { three: true }] })).toBe(
      null,
    );
    expect(findInputProblem(undefined)).toBe(null);
    expect(findInputProblem(nested(MAX_INPUT_DEPTH - 1))).toBe(null);
  });

  it("names the field holding a NUL byte", () => {
    expect(findInputProblem({ name: "a\u0000b" })).toEqual({
      path: "name",
      message: "contains a NUL character",
    });
    expect(findInputProblem({ context: { items: ["ok", "\u0000"] } })?.path).toBe(
      "context.items[1]",
    );
    expect(findInputProblem({ ["k\u0000"]: 1 })?.message).toMatch(/key/);
  });

  it("refuses lone surrogates (what invalid UTF-8 cannot become, and cannot be stored)", () => {
    expect(findInputProblem({ env: "\ud800" })?.message).toMatch(/Unicode/);
    expect(findInputProblem({ env: "\ud83d\ude00" })).toBe(null);
  });

  it("refuses input nested 5,000 deep without overflowing the stack", () => {
    expect(findInputProblem(nested(5000))?.message).toMatch(/nested deeper/);
    expect(findInputProblem(JSON.parse(`${"[".repeat(5000)}${"]".repeat(5000)}`))?.message).toMatch(
      /nested deeper/,
    );
  });

  it("refuses an input of too many values", () => {
    expect(findInputProblem({ items: Array(50_000).fill(1) })?.message).toMatch(/more than/);
  });
});
