import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importCycles, listCoreFiles, runtimeImportGraph } from "./core-modules";

// Issue 12: no import circle inside packages/core, type-only imports included (they still tie
// the folders together: a concept that cannot be read without another that reads it back).
// Before this check there was one circle of 32 files (actors, findings, node, runtime, ...).
// When two folders need each other, the shared piece moves to a third, lower file.
const root = fileURLToPath(new URL("..", import.meta.url));

describe("packages/core imports", () => {
  it("form no circle", () => {
    const graph = runtimeImportGraph(listCoreFiles(root), { withTypeImports: true });
    const cycles = importCycles(graph).map((files) => files.map((f) => path.relative(root, f)));
    expect(cycles).toEqual([]);
  });

  it("are read by the check (it would see a circle)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(importCycles(graph)).toEqual([["a", "b", "c"]]);
    // and the real graph is not empty: the local runner imports the episode run result.
    const real = runtimeImportGraph(listCoreFiles(root), { withTypeImports: true });
    expect(real.get(path.join(root, "runtime/local-runner.ts"))).toContain(
      path.join(root, "runtime/episode-run-result.ts"),
    );
  });
});
