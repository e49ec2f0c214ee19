import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { folderCycles, mutualFolderImports } from "./core-modules";

// Issue 30: no folder of core imports a folder that imports it back. A concept that cannot be
// read without the one that reads it is one floor split in two: the shared piece moves to a
// lower folder (recovery's policy type to actors/, node limits to scope/), or the reader moves
// up (the console's read models to console/, retries above episodes/ and the deferred queue).
// Before: five pairs (actors/nodes, actors/recovery, claims/nodes, episodes/trigger-requests,
// nodes/trigger-requests) inside one circle of ten folders; the node extensions of recovery and
// workflows now sit with the node. The file-level check (import-cycles.test.ts) cannot see these.
const root = fileURLToPath(new URL("..", import.meta.url));

describe("packages/core folders", () => {
  it("never import each other", () => {
    expect(mutualFolderImports(root)).toEqual([]);
  });

  it("form no circle of any length: the folders stack in floors", () => {
    expect(folderCycles(root)).toEqual([]);
  });
});
