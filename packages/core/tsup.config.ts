import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { defineConfig } from "tsup";

// One entry per folder with an index.ts (the `./*` subpath exports: concepts and their
// sub-folders such as `episodes/queries`), so `@cyclium/core/worker` keeps working once
// installed. Test kits are not shipped, except the claim adapters' conformance suite. Why tsup:
// see packages/db/tsup.config.ts.
const entries = fs
  .readdirSync("src", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith("/index.ts"))
  .map((file) => file.slice(0, -".ts".length))
  .filter((entry) => !entry.split("/").includes("testing") || entry === "claims/testing/index");

export default defineConfig({
  entry: {
    index: "src/index.ts",
    ...Object.fromEntries(entries.map((entry) => [entry, `src/${entry}.ts`])),
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
