import { defineConfig } from "tsup";

// The worker's production build: src/main.ts as one ES module; its dependencies stay imports.
// `start:prod` runs it with `--conditions=cyclium-build`, so the workspace packages it imports
// (and the deployment CYCLIUM_DEPLOYMENT names, e.g. @cyclium/demo) resolve to their dist/
// builds rather than their TypeScript sources. See docs/packages.md.
export default defineConfig({
  entry: { main: "src/main.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
});
