import { describe, expect, it } from "vitest";
import type { TClusterModes, TNodeModes } from "../nodes/list-node-modes";
import { EXPECTED_PICKUP_MS, explainPendingRequest } from "./explain-pending-request";

const worker = (overrides: Partial<TNodeModes> = {}): TNodeModes => ({
  identity: "worker-1",
  kind: "worker",
  mode: "full",
  overrides: {},
  stack: null,
  env: null,
  host: null,
  lastSeenAgoMs: 1_000,
  ...overrides,
});

const request = { actorId: "monitor", sourceEnv: null, ageMs: 1_000 };
const explain = (cluster: Partial<TClusterModes>, req = request) =>
  explainPendingRequest(req, { nodes: [], overrideRows: [], ...cluster });

describe("explainPendingRequest", () => {
  it("says no node is alive", () => {
    expect(explain({}).code).toBe("no_live_nodes");
  });

  it("says no live node runs in full mode, naming their modes", () => {
    const reason = explain({ nodes: [worker({ identity: "web-1", mode: "trigger_only" })] });
    expect(reason).toMatchObject({ code: "no_full_nodes" });
    expect(reason.message).toContain("web-1 is trigger_only");
  });

  it("applies a stored node-wide override before the node reports it", () => {
    const reason = explain({
      nodes: [worker()],
      overrideRows: [
        { id: "1", targetNode: "*", actorId: null, mode: "disabled", setBy: "ops", updatedAt: "" },
      ],
    });
    expect(reason.code).toBe("no_full_nodes");
  });

  it("matches env strictly", () => {
    const reason = explain({ nodes: [worker({ env: "staging" })] });
    expect(reason).toMatchObject({ code: "no_full_nodes_in_env" });
    expect(reason.message).toContain("serves env staging");
  });

  it("names a per-actor override and who set it; the node's own row beats '*'", () => {
    const reason = explain({
      nodes: [worker()],
      overrideRows: [
        { id: "1", targetNode: "*", actorId: "monitor", mode: "full", setBy: "a", updatedAt: "" },
        {
          id: "2",
          targetNode: "worker-1",
          actorId: "monitor",
          mode: "trigger_only",
          setBy: "alice",
          updatedAt: "",
        },
      ],
    });
    expect(reason.code).toBe("actor_not_full");
    expect(reason.message).toContain(
      "worker-1 has monitor in trigger_only by an override (set by alice)",
    );
  });

  it("uses the overrides a node reports when no row says otherwise", () => {
    expect(explain({ nodes: [worker({ overrides: { monitor: "disabled" } })] }).code).toBe(
      "actor_not_full",
    );
  });

  it("waits for the next poll, then says a capable node has not taken it", () => {
    expect(explain({ nodes: [worker()] })).toMatchObject({
      code: "waiting_for_poll",
      candidates: ["worker-1"],
    });
    expect(explain({ nodes: [worker()] }, { ...request, ageMs: EXPECTED_PICKUP_MS + 1 }).code).toBe(
      "not_picked_up",
    );
  });
});
