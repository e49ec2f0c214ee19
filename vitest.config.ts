import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// One run for unit (`*.test.ts`) and integration (`*.integration.test.ts`) tests of every package.
// The global setup starts (or reuses) the test PostgreSQL server and builds the migrated template
// database that each integration test file clones (see packages/db/src/testing).
export default defineConfig({
  // The console's `@/` imports (its tsconfig paths), for tests that load its route files.
  resolve: { alias: { "@/": fileURLToPath(new URL("./apps/web/src/", import.meta.url)) } },
  test: {
    include: [
      "packages/**/src/**/*.test.ts",
      "apps/**/src/**/*.test.ts",
      "bench/**/src/**/*.test.ts",
      "faults/**/src/**/*.test.ts",
      "examples/**/src/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/.next/**"],
    globalSetup: ["packages/db/src/testing/global-setup.ts"],
    pool: "forks",
    // Two files at once even on a 2-core machine, where vitest's default (cores - 1) is one fork
    // and ran all 178 files one after another: 446 s on CI, of which 343 s inside tests that
    // mostly wait on PostgreSQL, lease lapses and child processes (the run used 0.4 of a core).
    // Files share nothing but the server: each clones its own database, picks free ports and
    // its own temp folders, and the tests that restart PostgreSQL start a private server.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
