import { describe, expect, it } from "vitest";
import { ModeController } from "./mode-controller";
import type { ModeStatus } from "./mode";

function controller(): ModeController {
  return new ModeController({ nodeIdentity: "worker-1", baseMode: "full" });
}

describe("ModeController (in memory)", () => {
  it("switches node-wide and per actor, and reports status in the SPEC's shape", async () => {
    const modes = controller();
    await modes.setActorOverride("resource_monitor", "trigger_only");
    expect(modes.effectiveMode("resource_monitor")).toBe("trigger_only");
    expect(modes.effectiveMode("resource_advisor")).toBe("full");

    await modes.set("trigger_only");
    expect(modes.status()).toEqual({
      nodeMode: "trigger_only",
      overrides: { resource_monitor: "trigger_only" },
      nodeIdentity: "worker-1",
      baseMode: "full",
    });

    await modes.clearActorOverride("resource_monitor");
    await modes.resetNodeMode();
    expect(modes.status().nodeMode).toBe("full");
    expect(modes.status().overrides).toEqual({});
  });

  it("clearAllOverrides removes this node's actor overrides but keeps '*' ones and node mode", async () => {
    const modes = controller();
    modes.applyOverrides([{ targetNode: "*", actorId: "advisor", mode: "disabled" }]);
    await modes.setActorOverride("monitor", "trigger_only");
    await modes.set("trigger_only");

    await modes.clearAllOverrides();

    expect(modes.nodeMode).toBe("trigger_only");
    expect(modes.status().overrides).toEqual({ advisor: "disabled" });
  });

  it("notifies listeners on real changes only, and isolates a failing listener", async () => {
    const modes = controller();
    const seen: ModeStatus[] = [];
    modes.onChange(() => {
      throw new Error("listener bug");
    });
    const off = modes.onChange((status) => seen.push(status));

    await modes.set("trigger_only");
    await modes.set("trigger_only");
    // Same modes in force, different rows: not a change.
    modes.applyOverrides([{ targetNode: "worker-1", actorId: null, mode: "trigger_only" }]);
    expect(seen.map((s) => s.nodeMode)).toEqual(["trigger_only"]);

    off();
    await modes.set("full");
    expect(seen).toHaveLength(1);
  });

  it("ignores a store snapshot read before a later local write", async () => {
    const modes = controller();
    const readAt = modes.generation;
    await modes.set("disabled");
    // A sync that started before set() returns the old (empty) table.
    expect(modes.applyOverrides([], readAt)).toBe(false);
    expect(modes.nodeMode).toBe("disabled");
    expect(modes.applyOverrides([], modes.generation)).toBe(true);
    expect(modes.nodeMode).toBe("full");
  });

  it("rejects modes outside full | trigger_only | disabled", async () => {
    const modes = controller();
    // @ts-expect-error -- an untyped caller (console input, env) passing a bad value
    await expect(modes.set("paused")).rejects.toThrow();
  });
});
