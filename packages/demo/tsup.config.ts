import { defineConfig } from "tsup";

// The demo deployment as JavaScript, for `CYCLIUM_DEPLOYMENT=@cyclium/demo` in an installed
// setup and for apps/worker's start:prod. No declarations: it is loaded by name, not imported
// for its types, and building them would type-check all of core again (minutes on 2 cores).
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
});
