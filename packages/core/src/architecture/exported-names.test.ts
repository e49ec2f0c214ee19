import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { duplicateExportedNames, loadCoreModules } from "./core-modules";

// Issue 12: one definition per name inside core. Two `ZEpisodeEvent`s or two
// `loadAgentDefinitions` (only one of which respected `enabled`) drift apart silently; a name
// re-exported from several faces is fine, a second declaration of it is not.
const root = fileURLToPath(new URL("..", import.meta.url));

describe("packages/core exported names", () => {
  it("declares every exported name once", () => {
    const duplicates = Object.fromEntries(duplicateExportedNames(loadCoreModules(root)));
    expect(duplicates).toEqual({});
  });
});
