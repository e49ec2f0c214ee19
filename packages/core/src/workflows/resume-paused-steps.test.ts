import { describe, expect, it } from "vitest";
import { applyEpisodeEnd, initialTransition, resumePausedSteps } from "./advance-workflow";
import { defineWorkflow } from "./workflow-definition";

const now = new Date("2026-03-01T12:00:00Z");
const chain = defineWorkflow({
  name: "chain",
  failurePolicy: "pause",
  steps: [
    { name: "a", actor: "x", expectation: "e" },
    { name: "b", actor: "x", expectation: "e", dependsOn: ["a"] },
  ],
});

describe("resumePausedSteps", () => {
  it("accepts the paused step, keeps its error and starts its dependants", () => {
    const started = initialTransition(chain, now);
    const paused = applyEpisodeEnd(
      chain,
      started,
      { step: "a", episodeId: "ep-a", status: "failed", error: "boom" },
      now,
    );
    expect(paused?.status).toBe("blocked");
    if (!paused) throw new Error("no transition");
    const resumed = resumePausedSteps(chain, paused, now);
    expect(resumed?.status).toBe("running");
    expect(resumed?.steps.a).toMatchObject({ status: "done", error: "boom" });
    expect(resumed?.start).toEqual([{ step: "b", attempt: 1 }]);
    // Only a blocked instance can be resumed.
    expect(resumePausedSteps(chain, started, now)).toBeNull();
  });
});
