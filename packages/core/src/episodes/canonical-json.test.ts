import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { canonicalHash, canonicalJson } from "./canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth, so key order never changes the hash", () => {
    const a = { b: 1, a: { y: [3, { q: 1, p: 2 }], x: "s" } };
    const b = { a: { x: "s", y: [3, { p: 2, q: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"x":"s","y":[3,{"p":2,"q":1}]},"b":1}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalHash(a)).toBe(canonicalHash(b));
    expect(canonicalHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps array order significant", () => {
    expect(canonicalHash([1, 2])).not.toBe(canonicalHash([2, 1]));
  });

  it("serialises like JSON.stringify apart from key order", () => {
    const value = {
      when: new Date("2026-11-29T09:00:00.000Z"),
      gone: undefined,
      list: [undefined, null, "é\n", 1e21, -0, 0.1],
      t: true,
    };
    expect(canonicalJson(value)).toBe(
      '{"list":[null,null,"é\\n",1e+21,0,0.1],"t":true,"when":"2026-11-29T09:00:00.000Z"}',
    );
  });

  it("rejects values with no single JSON form", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 10n, cyclic, { f: Symbol("x") }.f]) {
      let caught: unknown;
      try {
        canonicalJson(bad);
      } catch (error) {
        caught = error;
      }
      expect(isCycliumError(caught, "invalid_input")).toBe(true);
    }
  });

  it("allows the same object twice when it is not a cycle", () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"k":1},"b":{"k":1}}');
  });
});
