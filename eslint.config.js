// One flat config for the workspace: type-checked rules, layer boundaries, and the rule that
// only env modules read process.env (see CONVENTIONS.md).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import cyclium from "./eslint-rules/core-import-cycles.js";

// Issue 12: every statement on a cyclium_* table lives in packages/core (or packages/db, for the
// migrations). A string or template naming one after a SQL keyword is a statement; names alone
// (the `cyclium_session` cookie, the `cyclium_web_refusals_total` metric) are not.
const TABLE_SQL = String.raw`/\b(from|join|into|update|truncate|table)\s+cyclium_[a-z_]+/i`;
const TABLE_SQL_MESSAGE =
  "SQL on a cyclium_* table belongs in packages/core: call (or add) a core function instead.";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.next/**",
      "**/dist/**",
      ".data/**",
      "packages/db/src/generated/**",
      "apps/web/src/server/rest/openapi/generated/**",
      "apps/web/next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "**/results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read configuration in an env module (env.ts) and pass it down.",
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // core is a library: no HTTP framework, no tRPC, no React, no Next.js.
    files: ["packages/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "react", "react-dom", "@trpc/*", "@tanstack/*"],
              message: "packages/core knows nothing of the web layer.",
            },
            {
              group: ["@cyclium/web", "@cyclium/worker"],
              message: "core must not depend on apps.",
            },
          ],
        },
      ],
    },
  },
  {
    // Only core and the migrations speak SQL to Cyclium's tables (issue 12). Tests, test kits and
    // benchmarks may still set up and inspect rows directly (they check what is stored), as may
    // the e2e, bench and faults harnesses, which observe a cluster from outside. The examples are
    // what teams copy, so they are held to it too.
    files: ["apps/**/*.{ts,tsx}", "packages/**/*.{ts,tsx}", "examples/**/*.{ts,tsx}"],
    ignores: [
      "packages/core/**",
      "packages/db/**",
      "**/*.test.ts",
      "**/*.spec.ts",
      "**/testing/**",
      "**/bench/**",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: `Literal[value=${TABLE_SQL}]`, message: TABLE_SQL_MESSAGE },
        { selector: `TemplateElement[value.raw=${TABLE_SQL}]`, message: TABLE_SQL_MESSAGE },
      ],
    },
  },
  {
    // No import circle inside packages/core or the fault suite (CONVENTIONS.md "No cycles").
    files: ["packages/core/src/**/*.ts", "faults/src/**/*.ts"],
    ignores: ["**/*.test.ts"],
    plugins: { cyclium },
    rules: { "cyclium/core-import-cycles": "error" },
  },
  {
    // Files that are allowed to read the environment: env modules, tests, scripts and tooling.
    files: [
      "**/env.ts",
      "**/env/*.ts",
      "**/*.test.ts",
      "**/*.spec.ts",
      "**/testing/**",
      "scripts/**",
      "**/vitest.config.ts",
      "**/playwright.config.ts",
      "**/*.mjs",
      "**/*.js",
    ],
    rules: { "no-restricted-properties": "off" },
  },
);
