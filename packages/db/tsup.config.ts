import fs from "node:fs/promises";
import { defineConfig } from "tsup";

// tsup (esbuild for the JavaScript, rollup-plugin-dts for the declarations) rather than `tsc -b`:
// the sources import each other without file extensions (moduleResolution "Bundler"), which tsc
// would emit unchanged and Node's ESM loader refuses; tsdown would do the same job but needs
// Node 22. Nothing of Prisma is shipped: the row types are plain interfaces (src/models.ts).
export default defineConfig({
  entry: {
    index: "src/index.ts",
    // The kit without Prisma Client (a workspace-only benchmark aid, see src/testing/index.ts).
    "testing/index": "src/testing/kit.ts",
    models: "src/models.ts",
  },
  format: ["esm"],
  target: "node20",
  platform: "node",
  // tsup's declaration build sets `baseUrl`, which TypeScript 6 reports as deprecated.
  dts: { compilerOptions: { ignoreDeprecations: "6.0" } },
  sourcemap: true,
  clean: true,
  // Shared modules go to chunks, so both entry points see one copy of each (paths, migrator).
  splitting: true,
  // The migrations ship inside the package: paths.ts finds them in dist/migrations. Copied afresh:
  // `clean` empties dist/ of files but leaves directories, and a migration directory removed from
  // prisma/migrations stayed behind empty, which the migrator then refused (no migration.sql).
  onSuccess: async () => {
    await fs.rm("dist/migrations", { recursive: true, force: true });
    await fs.cp("../../prisma/migrations", "dist/migrations", { recursive: true });
  },
});
