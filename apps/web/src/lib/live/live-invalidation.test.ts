import { describe, expect, it } from "vitest";
import { isStaleAfter, readsForHint, trpcPathOfQueryKey } from "./live-invalidation";

const staleAfter = (topic: string, path: string) => isStaleAfter(path, readsForHint({ topic }));

describe("readsForHint", () => {
  it("refetches every read an episode's status shows in, but not the facet scan", () => {
    for (const path of [
      "episodes.list",
      "episodes.detail",
      "overview.stats",
      "claims.list",
      "claims.summary",
      "triggerRequests.list",
      "workflows.instance",
    ]) {
      expect(staleAfter("episode.completed", path), path).toBe(true);
      expect(staleAfter("expectation.triggered", path), path).toBe(true);
    }
    expect(staleAfter("episode.completed", "episodes.facets")).toBe(false);
    expect(staleAfter("episode.completed", "auditLog.list")).toBe(false);
  });

  it("refetches everything but facets on (re)connect and after an overflow", () => {
    expect(staleAfter("live.ready", "auditLog.list")).toBe(true);
    expect(staleAfter("live.resync", "findings.list")).toBe(true);
    expect(staleAfter("live.resync", "episodes.facets")).toBe(false);
  });

  it("keeps findings, workflows and node modes to their own reads and the overview", () => {
    expect(staleAfter("finding.raised", "findings.list")).toBe(true);
    expect(staleAfter("finding.raised", "episodes.list")).toBe(false);
    expect(staleAfter("workflow.completed", "workflows.list")).toBe(true);
    expect(staleAfter("node.modes_applied", "modes.cluster")).toBe(true);
    expect(staleAfter("something.new", "overview.stats")).toBe(true);
    expect(staleAfter("something.new", "episodes.list")).toBe(false);
  });
});

describe("trpcPathOfQueryKey", () => {
  it("reads the path of a tRPC query key", () => {
    expect(trpcPathOfQueryKey([["episodes", "list"], { input: {}, type: "query" }])).toBe(
      "episodes.list",
    );
    expect(trpcPathOfQueryKey(["not-trpc"])).toBe("");
  });
});
