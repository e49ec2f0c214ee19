import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readZodIssues } from "./zod-issues";

describe("readZodIssues", () => {
  it("reads a ZodError's message, as the runner stores it after init failed", () => {
    const error = z.object({ resourceId: z.string().min(1) }).safeParse({}).error;
    const issues = readZodIssues(`init failed: ${error?.message ?? ""}`);
    expect(issues?.map((issue) => issue.path)).toEqual(["resourceId"]);
    expect(issues?.[0]?.message).toContain("string");
  });

  it("answers null for any other message", () => {
    expect(readZodIssues("upstream said no")).toBeNull();
    expect(readZodIssues("[not json")).toBeNull();
    expect(readZodIssues("[]")).toBeNull();
    expect(readZodIssues(null)).toBeNull();
  });
});
