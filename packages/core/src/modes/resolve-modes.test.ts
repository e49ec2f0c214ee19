import { describe, expect, it } from "vitest";
import type { Mode } from "./mode";
import { effectiveModeFor, resolveModes, type OverrideEntry } from "./resolve-modes";

const ME = "worker-1";

function row(targetNode: string, actorId: string | null, mode: Mode): OverrideEntry {
  return { targetNode, actorId, mode };
}

describe("resolveModes precedence", () => {
  it("uses the configured base mode when nothing overrides it", () => {
    const resolved = resolveModes("trigger_only", ME, []);
    expect(resolved.nodeMode).toBe("trigger_only");
    expect(effectiveModeFor(resolved, "any_actor")).toBe("trigger_only");
  });

  it("node-wide: base < '*' < this node's identity, whatever the row order", () => {
    expect(resolveModes("full", ME, [row("*", null, "trigger_only")]).nodeMode).toBe(
      "trigger_only",
    );
    const both = [row(ME, null, "disabled"), row("*", null, "trigger_only")];
    expect(resolveModes("full", ME, both).nodeMode).toBe("disabled");
    expect(resolveModes("full", ME, [...both].reverse()).nodeMode).toBe("disabled");
  });

  it("ignores rows addressed to other nodes", () => {
    const resolved = resolveModes("full", ME, [
      row("worker-2", null, "disabled"),
      row("worker-2", "a", "trigger_only"),
    ]);
    expect(resolved.nodeMode).toBe("full");
    expect(resolved.actorOverrides.size).toBe(0);
  });

  it("per actor: '*' < this node's identity; other actors keep the node-wide mode", () => {
    const resolved = resolveModes("full", ME, [
      row(ME, "monitor", "full"),
      row("*", "monitor", "trigger_only"),
      row("*", "advisor", "trigger_only"),
    ]);
    expect(effectiveModeFor(resolved, "monitor")).toBe("full");
    expect(effectiveModeFor(resolved, "advisor")).toBe("trigger_only");
    expect(effectiveModeFor(resolved, "other")).toBe("full");
  });

  it("an actor override beats the node-wide mode, even a more specific node-wide row", () => {
    // Each key is settled by specificity first; only then does actor beat node-wide.
    const resolved = resolveModes("full", ME, [
      row(ME, null, "trigger_only"),
      row("*", "monitor", "full"),
    ]);
    expect(resolved.nodeMode).toBe("trigger_only");
    expect(effectiveModeFor(resolved, "monitor")).toBe("full");
  });

  it("a node-wide disabled wins over every actor override", () => {
    const resolved = resolveModes("full", ME, [
      row("*", null, "disabled"),
      row(ME, "monitor", "full"),
    ]);
    expect(effectiveModeFor(resolved, "monitor")).toBe("disabled");
  });
});
