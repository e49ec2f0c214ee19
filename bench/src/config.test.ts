import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";
import { DEFAULT_SYSTEM_IDS, QUICK_SYSTEM_IDS } from "./systems/system-id";

describe("parseConfig", () => {
  it("runs DBOS by default and in --quick", () => {
    expect(DEFAULT_SYSTEM_IDS).toContain("dbos");
    expect(QUICK_SYSTEM_IDS).toContain("dbos");
    expect(parseConfig([]).systems).toContain("dbos");
  });

  it("gives --scale its sizes, 5,000 drain items and 1,000 orphans", () => {
    expect(parseConfig(["--scale"]).scale).toEqual({
      sizes: [1, 4, 8, 16],
      idleSeconds: 30,
      probes: 50,
      drainItems: 5_000,
      orphans: 1_000,
    });
    const custom = parseConfig(["--scale", "--scale-sizes", "2,32", "--items", "800"]).scale;
    expect(custom?.sizes).toEqual([2, 32]);
    expect(custom?.drainItems).toBe(800);
    expect(parseConfig([]).scale).toBeUndefined();
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => parseConfig(["--scale", "--scale-sizes", "1,0"])).toThrow(/--scale-sizes/);
  });
});
