import { describe, expect, it } from "vitest";
import {
  applyEpisodeEnd,
  cancelInstance,
  initialTransition,
  recordEpisodeId,
  retryPausedStep,
  startDueRetries,
  type WorkflowSnapshot,
  type WorkflowTransition,
} from "./advance-workflow";
import { defineWorkflow, type TWorkflowDefinitionInput } from "./workflow-definition";

const now = new Date("2026-03-01T12:00:00Z");

function diamond(overrides: Partial<TWorkflowDefinitionInput> = {}) {
  return defineWorkflow({
    name: "diamond",
    steps: [
      { name: "a", actor: "x", expectation: "e" },
      { name: "b", actor: "x", expectation: "e", dependsOn: ["a"] },
      { name: "c", actor: "x", expectation: "e", dependsOn: ["a"] },
      { name: "d", actor: "x", expectation: "e", dependsOn: ["b", "c"] },
    ],
    ...overrides,
  });
}

function snap(transition: WorkflowTransition | null): WorkflowSnapshot {
  if (!transition) throw new Error("expected a transition");
  return { status: transition.status, steps: transition.steps };
}

function statuses(snapshot: WorkflowSnapshot): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot.steps).map(([k, v]) => [k, v.status]));
}

const completed = (step: string, episodeId: string | null = null) => ({
  step,
  episodeId,
  status: "completed" as const,
});
const failed = (step: string, episodeId: string | null = null) => ({
  step,
  episodeId,
  status: "failed" as const,
  error: "boom",
});

describe("workflow transitions", () => {
  it("starts roots, then each step once all its dependencies are done, then finishes", () => {
    const def = diamond();
    const start = initialTransition(def, now);
    expect(start.start).toEqual([{ step: "a", attempt: 1 }]);
    let s = snap(start);
    const afterA = applyEpisodeEnd(def, s, completed("a"), now);
    expect(afterA?.start.map((x) => x.step)).toEqual(["b", "c"]);
    s = snap(afterA);
    const afterB = applyEpisodeEnd(def, s, completed("b"), now);
    expect(afterB?.start).toEqual([]);
    s = snap(afterB);
    s = snap(applyEpisodeEnd(def, s, completed("c"), now));
    expect(statuses(s).d).toBe("running");
    const end = applyEpisodeEnd(def, s, completed("d"), now);
    expect(end?.status).toBe("done");
  });

  it("ignores a replayed event, a stale attempt's event and events of finished instances", () => {
    const def = diamond();
    let s = snap(initialTransition(def, now));
    s = snap(recordEpisodeId(s, "a", 1, "ep-1"));
    expect(recordEpisodeId(s, "a", 1, "ep-1")).toBeNull();
    expect(applyEpisodeEnd(def, s, completed("a", "ep-old"), now)).toBeNull();
    const once = snap(applyEpisodeEnd(def, s, completed("a", "ep-1"), now));
    expect(applyEpisodeEnd(def, once, completed("a", "ep-1"), now)).toBeNull();
    expect(applyEpisodeEnd(def, { ...once, status: "done" }, completed("b"), now)).toBeNull();
    expect(applyEpisodeEnd(def, once, completed("nope"), now)).toBeNull();
  });

  it("abort: the failed step fails the instance, running and pending steps are cancelled", () => {
    const def = diamond();
    let s = snap(initialTransition(def, now));
    s = snap(applyEpisodeEnd(def, s, completed("a"), now));
    s = snap(recordEpisodeId(s, "c", 1, "ep-c"));
    const t = applyEpisodeEnd(def, s, failed("b"), now);
    expect(t?.status).toBe("failed");
    expect(t?.errorMessage).toMatch(/step b failed: boom/);
    expect(t?.cancelEpisodes).toEqual(["ep-c"]);
    expect(statuses(snap(t))).toEqual({ a: "done", b: "failed", c: "cancelled", d: "cancelled" });
  });

  it("pause: the step waits for an operator and the instance is blocked until retried", () => {
    const def = diamond({ failurePolicy: "pause" });
    let s = snap(initialTransition(def, now));
    const t = applyEpisodeEnd(def, s, failed("a"), now);
    expect(t?.status).toBe("blocked");
    s = snap(t);
    const retried = retryPausedStep(def, s, "a", now);
    expect(retried?.status).toBe("running");
    expect(retried?.start).toEqual([{ step: "a", attempt: 2 }]);
    expect(retryPausedStep(def, snap(retried), "a", now)).toBeNull();
  });

  it("retry: backs off exponentially and aborts after maxStepAttempts", () => {
    const def = diamond({ failurePolicy: "retry", maxStepAttempts: 3, retryBackoffMs: 1_000 });
    let s = snap(initialTransition(def, now));
    s = snap(applyEpisodeEnd(def, s, failed("a"), now));
    expect(s.steps.a).toMatchObject({ status: "retrying", retryAt: "2026-03-01T12:00:01.000Z" });
    expect(startDueRetries(def, s, now)).toBeNull();
    const later = new Date(now.getTime() + 1_000);
    const second = startDueRetries(def, s, later);
    expect(second?.start).toEqual([{ step: "a", attempt: 2 }]);
    s = snap(applyEpisodeEnd(def, snap(second), failed("a"), later));
    expect(s.steps.a?.retryAt).toBe("2026-03-01T12:00:03.000Z");
    s = snap(startDueRetries(def, s, new Date(now.getTime() + 3_000)));
    const last = applyEpisodeEnd(def, s, failed("a"), now);
    expect(last?.status).toBe("failed");
  });

  it("cancel: every unfinished step and the instance", () => {
    const def = diamond();
    const s = snap(initialTransition(def, now));
    const t = cancelInstance(s, now);
    expect(t?.status).toBe("cancelled");
    expect(statuses(snap(t))).toEqual({
      a: "cancelled",
      b: "cancelled",
      c: "cancelled",
      d: "cancelled",
    });
    expect(cancelInstance(snap(t), now)).toBeNull();
  });
});
