import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { defineConfig } from "tsup";

// One entry per entry point of package.json's `exports` (the public API, see api-report.md), so
// `@cyclium/core/worker` keeps working once installed. Why tsup: see packages/db/tsup.config.ts.
const manifest = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  exports: Record<string, { default: string }>;
};
const entries = Object.values(manifest.exports).map((target) =>
  target.default.replace(/^\.\/src\//, "").replace(/\.ts$/, ""),
);

export default defineConfig({
  entry: Object.fromEntries(entries.map((entry) => [entry, `src/${entry}.ts`])),
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
