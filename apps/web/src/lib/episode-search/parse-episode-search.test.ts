import { describe, expect, it } from "vitest";
import { parseEpisodeSearch, type TEpisodeSearchParse } from "./parse-episode-search";

const parsed = (query: string) => {
  const result = parseEpisodeSearch(query);
  if (result.kind !== "parsed") throw new Error(`expected parsed, got: ${result.message}`);
  return result.search;
};
const message = (query: string) => {
  const result: TEpisodeSearchParse = parseEpisodeSearch(query);
  if (result.kind !== "invalid") throw new Error(`expected invalid: ${query}`);
  return result.message;
};

describe("parseEpisodeSearch", () => {
  it("reads every qualifier into its filter field", () => {
    expect(
      parsed(
        "actor:billing expectation:charge status:failed trigger:manual stack:blue key:k1 id:3F2A-9b env:staging",
      ),
    ).toEqual({
      actorId: "billing",
      expectationId: "charge",
      status: "failed",
      triggerType: "manual",
      stack: "blue",
      dedupeKey: "k1",
      idPrefix: "3f2a9b",
      env: "staging",
      input: [],
    });
  });

  it("reads input paths, quoted values with spaces and escapes, and env:default as the unset env", () => {
    expect(parsed('input.customer.region:eu input.note:"a \\"big\\" one" env:default')).toEqual({
      env: null,
      input: [
        { path: ["customer", "region"], value: "eu" },
        { path: ["note"], value: 'a "big" one' },
      ],
    });
  });

  it("reads free text as an id prefix when it is hex, else as a dedupe key", () => {
    expect(parsed("  ")).toEqual({ input: [] });
    expect(parsed("0b7e41c2-55")).toMatchObject({ idPrefix: "0b7e41c255" });
    expect(parsed("nightly-report")).toMatchObject({ dedupeKey: "nightly-report" });
    expect(parsed('"manual:alpha:check:1"')).toMatchObject({ dedupeKey: "manual:alpha:check:1" });
    expect(parsed("abc")).toMatchObject({ dedupeKey: "abc" }); // too short for an id
  });

  it("answers readable messages for what it cannot read", () => {
    expect(message("stauts:failed")).toMatch(/Unknown qualifier stauts:.*status:/);
    expect(message("manual:alpha:check")).toMatch(/in quotes/);
    expect(message("status:broken")).toBe(
      "status:broken is not valid (one of pending, running, waiting, completed, failed, cancelled).",
    );
    expect(message("status:failed status:cancelled")).toBe("status: is given twice.");
    expect(message("id:xyz")).toMatch(/id:xyz is not valid/);
    expect(message("actor:")).toMatch(/needs a value/);
    expect(message("input:5")).toMatch(/say which field/);
    expect(message("input.a..b:5")).toMatch(/path segments/);
    expect(message('key:"open')).toBe("A quote is not closed.");
    expect(message("one two")).toMatch(/Free text is one term/);
    expect(message("deadbeef id:12")).toMatch(/id: is given too/);
    expect(message("x".repeat(1_001))).toMatch(/at most 1000/);
  });
});
