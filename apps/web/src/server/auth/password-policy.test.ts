import * as core from "@cyclium/core/console";
import { describe, expect, it } from "vitest";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-policy";

describe("the form's password limits", () => {
  it("are core's, so the form never passes what the server refuses for length", () => {
    expect(MIN_PASSWORD_LENGTH).toBe(core.MIN_PASSWORD_LENGTH);
    expect(MAX_PASSWORD_LENGTH).toBe(core.MAX_PASSWORD_LENGTH);
  });
});
