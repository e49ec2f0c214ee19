import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { envScopeSql } from "./env-scope";
import { resolveScope, scopeFragment, scopeSql } from "./resolve-scope";
import { SqlParams } from "./sql-params";
import { stackScopeSql } from "./stack-scope";

describe("stackScopeSql", () => {
  it("matches the node's stack or NULL", () => {
    const params = new SqlParams();
    expect(stackScopeSql("e.source_stack", "hatch", params)).toBe(
      "(e.source_stack = $1 OR e.source_stack IS NULL)",
    );
    expect(params.values).toEqual(["hatch"]);
  });

  it("does not filter when the node has no stack", () => {
    const params = new SqlParams();
    expect(stackScopeSql("source_stack", null, params)).toBe("TRUE");
    expect(params.values).toEqual([]);
  });
});

describe("envScopeSql", () => {
  it("is strict equality for a set env", () => {
    const params = new SqlParams(["first"]);
    expect(envScopeSql("env", "rc", params)).toBe("env = $2");
    expect(params.values).toEqual(["first", "rc"]);
  });

  it("matches only NULL for the unset env", () => {
    const params = new SqlParams();
    expect(envScopeSql("source_env", null, params)).toBe("source_env IS NULL");
    expect(params.values).toEqual([]);
  });

  it("refuses anything but a plain column name", () => {
    let caught: unknown;
    try {
      envScopeSql("env; DROP TABLE x", "rc", new SqlParams());
    } catch (error) {
      caught = error;
    }
    expect(isCycliumError(caught, "invalid_input")).toBe(true);
  });
});

describe("resolveScope", () => {
  const node = { stack: "hatch", env: "rc" };

  it("keeps the node's values when nothing is overridden", () => {
    expect(resolveScope(node)).toEqual(node);
    expect(resolveScope(node, { sourceStack: undefined })).toEqual(node);
  });

  it("lets a call target another env or the unset one", () => {
    expect(resolveScope(node, { sourceEnv: "demo" })).toEqual({ stack: "hatch", env: "demo" });
    expect(resolveScope(node, { sourceEnv: null, sourceStack: null })).toEqual({
      stack: null,
      env: null,
    });
  });
});

describe("scopeSql / scopeFragment", () => {
  it("combines both scopes with shared numbering", () => {
    const params = new SqlParams(["running"]);
    expect(scopeSql({ stack: "a", env: null }, params)).toBe(
      "(source_stack = $2 OR source_stack IS NULL) AND source_env IS NULL",
    );
    expect(params.values).toEqual(["running", "a"]);
  });

  it("numbers a standalone fragment after an offset", () => {
    expect(scopeFragment({ stack: null, env: "rc" }, 2, { env: "t.source_env" })).toEqual({
      text: "TRUE AND t.source_env = $3",
      values: ["rc"],
    });
  });
});
