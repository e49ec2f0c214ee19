import { defineConfig } from "vitest/config";

// One run for unit (`*.test.ts`) and integration (`*.integration.test.ts`) tests of every package.
// The global setup starts (or reuses) the test PostgreSQL server and builds the migrated template
// database that each integration test file clones (see packages/db/src/testing).
export default defineConfig({
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
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
