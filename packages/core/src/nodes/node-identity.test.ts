import { describe, expect, it } from "vitest";
import { isCycliumError } from "../errors/index";
import { processNodeIdentity, resolveNodeIdentity } from "./node-identity";

describe("resolveNodeIdentity", () => {
  it("uses a static value as given, trimmed", () => {
    expect(resolveNodeIdentity("  worker-7 ")).toBe("worker-7");
  });

  it("calls a resolver function", () => {
    expect(resolveNodeIdentity(() => "from-resolver")).toBe("from-resolver");
  });

  it("falls back to one random identity that is stable for the process", () => {
    const first = resolveNodeIdentity();
    expect(first).toBe(resolveNodeIdentity(undefined));
    expect(first).toBe(resolveNodeIdentity(null));
    expect(first).toBe(processNodeIdentity());
    expect(first).toMatch(/-[0-9a-f]{8}$/);
  });

  it("rejects empty and over-long identities with invalid_config", () => {
    for (const bad of ["", "   ", "x".repeat(256)]) {
      let caught: unknown;
      try {
        resolveNodeIdentity(bad);
      } catch (error) {
        caught = error;
      }
      expect(isCycliumError(caught, "invalid_config")).toBe(true);
    }
  });
});
