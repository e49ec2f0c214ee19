import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_FILES, exampleRoot, repoRoot } from "./testing/scratch-project";

// docs/getting-started.md shows the example's files as code blocks tagged ```ts file=<path>: the
// files the scratch-project test installs and runs. A block edited without its file (or the
// reverse) fails here, so the guide cannot show code that no test runs.
const BLOCK = /^```[a-z]+ file=(\S+)\n([\s\S]*?)^```$/gm;

async function docBlocks(): Promise<Map<string, string[]>> {
  const doc = await fs.readFile(path.join(repoRoot, "docs/getting-started.md"), "utf8");
  const blocks = new Map<string, string[]>();
  for (const match of doc.matchAll(BLOCK)) {
    const [, file, body] = match;
    if (file === undefined || body === undefined) continue;
    blocks.set(file, [...(blocks.get(file) ?? []), body]);
  }
  return blocks;
}

describe("docs/getting-started.md", () => {
  it("shows every example file once, exactly as it is in examples/getting-started", async () => {
    const blocks = await docBlocks();
    expect([...blocks.keys()].sort()).toEqual([...EXAMPLE_FILES].sort());
    for (const file of EXAMPLE_FILES) {
      const onDisk = await fs.readFile(path.join(exampleRoot, file), "utf8");
      expect(blocks.get(file), file).toEqual([onDisk]);
    }
  });
});
