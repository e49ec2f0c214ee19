import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { defineConfig } from "tsup";

// One entry per concept folder (the `./*` subpath exports) plus the root and the claim adapters'
// conformance suite, so `@cyclium/core/worker` keeps working once installed. Why tsup: see
// packages/db/tsup.config.ts.
const concepts = fs
  .readdirSync("src", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(`src/${entry.name}/index.ts`))
  .map((entry) => entry.name);

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "claims/testing/index": "src/claims/testing/index.ts",
    ...Object.fromEntries(concepts.map((name) => [`${name}/index`, `src/${name}/index.ts`])),
  },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
  // Shared modules go to chunks: `@cyclium/core` and `@cyclium/core/worker` must share one copy
  // of each module (CycliumError's instanceof, registries).
  splitting: true,
  // The conformance suite runs inside the adapter author's vitest (an optional peer).
  external: ["vitest"],
  // Declarations by tsc, beside the JavaScript (see scripts/build-declarations.mjs).
  onSuccess: () => {
    execFileSync(process.execPath, ["../../scripts/build-declarations.mjs"], { stdio: "inherit" });
    return Promise.resolve();
  },
});
