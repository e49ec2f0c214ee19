import { describe, expect, it } from "vitest";
import {
  EXPECTED_PICKUP_MS,
  explainPendingRequest,
  type NodeModes,
  type OverrideRow,
} from "./explain-pending-request";

const worker = (overrides: Partial<NodeModes> = {}): NodeModes => ({
  identity: "worker-1",
  mode: "full",
  overrides: {},
  env: null,
  ...overrides,
});

type TCluster = { nodes: NodeModes[]; overrideRows: OverrideRow[] };

const request = { actorId: "monitor", sourceEnv: null, ageMs: 1_000 };
const explain = (cluster: Partial<TCluster>, req = request) =>
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
      overrideRows: [{ targetNode: "*", actorId: null, mode: "disabled", setBy: "ops" }],
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
        { targetNode: "*", actorId: "monitor", mode: "full", setBy: "a" },
        {
          targetNode: "worker-1",
          actorId: "monitor",
          mode: "trigger_only",
          setBy: "alice",
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
