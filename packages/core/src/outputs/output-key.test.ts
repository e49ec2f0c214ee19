import { describe, expect, it } from "vitest";
import { dedupeKey } from "../episodes/dedupe-key";
import { outputKeyOf } from "./output-key";

const id = "6f1c1d9e-0000-4000-8000-000000000001";

describe("outputKeyOf (SPEC 8: env folded into keys)", () => {
  it("derives the key from the dedupe key, which already carries the env", () => {
    const key = dedupeKey({
      trigger: "manual",
      actorId: "billing",
      expectationId: "run",
      idempotencyKey: "inv-7",
      env: "staging",
    });
    expect(outputKeyOf({ episode: { id, dedupeKey: key, sourceEnv: "staging" } })).toBe(
      "manual:billing:run:inv-7@staging",
    );
  });

  it("uses the episode id without a dedupe key, folded with the env when set", () => {
    expect(outputKeyOf({ episode: { id, dedupeKey: null, sourceEnv: null } })).toBe(
      `episode:${id}`,
    );
    expect(outputKeyOf({ episode: { id, dedupeKey: null, sourceEnv: "staging" } })).toBe(
      `episode:${id}@staging`,
    );
  });

  it("folds explicit keys with the env, and each env gets its own key", () => {
    const episode = { id, dedupeKey: null, sourceEnv: "staging" };
    expect(outputKeyOf({ key: "report", episode })).toBe("report@staging");
    expect(outputKeyOf({ key: "report@staging", episode })).toBe("report@staging");
    expect(outputKeyOf({ key: "report", episode: { ...episode, sourceEnv: null } })).toBe("report");
  });

  it("refuses an empty or overlong key", () => {
    const episode = { id, dedupeKey: null, sourceEnv: null };
    expect(() => outputKeyOf({ key: "", episode })).toThrow(/empty/);
    expect(() => outputKeyOf({ key: "k".repeat(600), episode })).toThrow(/600 characters/);
  });
});
