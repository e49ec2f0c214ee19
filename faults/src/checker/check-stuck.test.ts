import { describe, expect, it } from "vitest";
import { checkStuck, ownershipOf } from "./check-stuck";
import type { EpisodeRow, OpenRow, RunFacts } from "./run-facts";

function open(over: Partial<OpenRow>): OpenRow {
  return {
    id: "e1",
    actor_id: "q-restarter",
    status: "pending",
    trigger_type: "manual",
    source_node: "w1",
    executed_by: null,
    queued_by: null,
    open_request: null,
    request_claimed_by: null,
    idle_ms: 60_000,
    ...over,
  };
}

function facts(over: Partial<RunFacts> & { liveNodes?: string[] }): RunFacts {
  const { liveNodes, ...rest } = over;
  return {
    meta: {
      id: 8,
      name: "test",
      quick: true,
      leaseSeconds: 3,
      staleAfterMs: 4_000,
      recoveryIntervalMs: 1_000,
      startedAt: 0,
      finishedAt: 1,
      drained: false,
      drainMs: 0,
      settled: "stalled",
      measured: {},
      ...(liveNodes === undefined ? {} : { liveNodes }),
    },
    episodes: [],
    steps: [],
    claims: [],
    requests: [],
    open: [],
    limitStarts: [],
    history: [],
    ...rest,
  };
}

const live = new Set(["w1", "w2"]);

describe("ownershipOf", () => {
  it("finds a pending episode with no open request and no queue owner stuck", () => {
    expect(ownershipOf(open({}), live)).toEqual({
      kind: "stuck",
      reason: "pending, no open request, no queue owner",
    });
  });

  it("lets a pending trigger request or a live node's queue own a pending episode", () => {
    expect(ownershipOf(open({ open_request: "pending" }), live).kind).toBe("owned");
    expect(ownershipOf(open({ queued_by: "w2" }), live).kind).toBe("owned");
    expect(
      ownershipOf(open({ open_request: "claimed", request_claimed_by: "w1" }), live).kind,
    ).toBe("owned");
  });

  it("finds work held by a gone node stuck: its queue, its claimed request, its running episode", () => {
    expect(ownershipOf(open({ queued_by: "w3" }), live)).toEqual({
      kind: "stuck",
      reason: "pending, queued by a gone node",
    });
    expect(
      ownershipOf(open({ open_request: "claimed", request_claimed_by: "w3" }), live).kind,
    ).toBe("stuck");
    expect(ownershipOf(open({ status: "running", executed_by: "w3" }), live)).toEqual({
      kind: "stuck",
      reason: "running on a gone node",
    });
    expect(ownershipOf(open({ status: "running", executed_by: "w1" }), live).kind).toBe("owned");
  });
});

describe("checkStuck", () => {
  it("passes a drained run and fails one with a stuck episode, naming the reason", () => {
    expect(checkStuck(facts({ liveNodes: ["w1"] })).stuck).toBe(0);
    const result = checkStuck(
      facts({ liveNodes: ["w1"], open: [open({}), open({ id: "e2", queued_by: "w3" })] }),
    );
    expect(result.stuck).toBe(2);
    expect(result.violations[0]).toContain("1 pending, no open request, no queue owner");
    expect(result.violations[0]).toContain("1 pending, queued by a gone node");
  });

  it("counts work a live owner let sit through the still window as stuck", () => {
    // Seen in a quick run: requests claimed by a live worker whose dispatch failed while the
    // database restarted stayed `claimed` for good.
    const claimed = open({ open_request: "claimed", request_claimed_by: "w1" });
    const stalled = checkStuck(facts({ liveNodes: ["w1"], open: [claimed] }));
    expect(stalled.stuck).toBe(1);
    expect(stalled.violations[0]).toContain("nominally a request claimed by w1");
    const busy = facts({ liveNodes: ["w1"], open: [claimed] });
    busy.meta.settled = "timed_out";
    expect(checkStuck(busy).stuck).toBe(0);
  });

  it("reads a run recorded before the snapshot from its final dump", () => {
    const pending = { id: "e3", actor_id: "restarter", status: "pending" } as EpisodeRow;
    const requested = { id: "e4", actor_id: "restarter", status: "pending" } as EpisodeRow;
    const old = facts({
      episodes: [pending, requested],
      requests: [{ id: "1", episode_id: "e4", status: "pending", claimed_by: null }],
    });
    delete old.meta.settled;
    expect(checkStuck(old).stuck).toBe(1);
  });
});
