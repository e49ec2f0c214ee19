import { describe, expect, it } from "vitest";
import { matchesFilter, subjectOf } from "./event-filter";

describe("matchesFilter", () => {
  it("checks equality and in-lists on dot paths", () => {
    const payload = { kind: "cpu", resource: { id: 7, region: "eu" } };
    expect(matchesFilter(payload, undefined)).toBe(true);
    expect(matchesFilter(payload, { kind: "cpu", "resource.region": { in: ["eu", "us"] } })).toBe(
      true,
    );
    expect(matchesFilter(payload, { kind: "mem" })).toBe(false);
    expect(matchesFilter(payload, { "resource.missing": null })).toBe(false);
  });
});

describe("subjectOf", () => {
  it("keys by the subject field, or one shared subject", () => {
    expect(subjectOf({ resource: { id: 7 } }, "resource.id")).toBe("7");
    expect(subjectOf({ resource: "a" }, undefined)).toBe("*");
    expect(subjectOf({}, "resource")).toBe("*");
  });
});
