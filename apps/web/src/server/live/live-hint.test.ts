import { describe, expect, it } from "vitest";
import { hintMatchesEnv, toLiveHint } from "./live-hint";

describe("toLiveHint", () => {
  it("reads episode events (camelCase) and lifecycle announcements (snake_case) alike", () => {
    expect(
      toLiveHint({
        topic: "episode.failed",
        payload: { episodeId: "e1", actorId: "a", workflowInstanceId: "w1", sourceEnv: "prod" },
      }),
    ).toEqual({
      topic: "episode.failed",
      episodeId: "e1",
      actorId: "a",
      workflowInstanceId: "w1",
      env: "prod",
    });
    expect(
      toLiveHint({
        topic: "workflow.started",
        payload: { instance_id: "w2", workflow: "x", env: null, node: "n1" },
      }),
    ).toEqual({ topic: "workflow.started", workflowInstanceId: "w2", node: "n1", env: null });
  });

  it("carries no data beyond ids (no results, no messages) and tolerates odd payloads", () => {
    const hint = toLiveHint({
      topic: "episode.completed",
      payload: { episodeId: "e1", result: { secret: 1 }, errorMessage: "boom" },
    });
    expect(hint).toEqual({ topic: "episode.completed", episodeId: "e1" });
    expect(toLiveHint({ topic: "x", payload: "text" })).toEqual({ topic: "x" });
    expect(toLiveHint({ topic: "x", payload: null })).toEqual({ topic: "x" });
  });
});

describe("hintMatchesEnv", () => {
  it("sends a hint of unknown env to every env, a known one to its own", () => {
    expect(hintMatchesEnv({ topic: "t" }, "prod")).toBe(true);
    expect(hintMatchesEnv({ topic: "t", env: null }, null)).toBe(true);
    expect(hintMatchesEnv({ topic: "t", env: null }, "prod")).toBe(false);
    expect(hintMatchesEnv({ topic: "t", env: "prod" }, "prod")).toBe(true);
  });
});
