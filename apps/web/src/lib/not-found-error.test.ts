import { describe, expect, it } from "vitest";
import { isNotFoundError } from "./not-found-error";

describe("isNotFoundError", () => {
  it("is true for a tRPC client error whose code is NOT_FOUND", () => {
    expect(isNotFoundError({ message: "x", data: { code: "NOT_FOUND", httpStatus: 404 } })).toBe(
      true,
    );
  });

  it("is false for other codes, plain errors and non-objects", () => {
    expect(isNotFoundError({ data: { code: "INTERNAL_SERVER_ERROR" } })).toBe(false);
    expect(isNotFoundError(new Error("NOT_FOUND"))).toBe(false);
    expect(isNotFoundError({ data: null })).toBe(false);
    expect(isNotFoundError(undefined)).toBe(false);
  });
});
