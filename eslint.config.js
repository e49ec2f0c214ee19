// One flat config for the workspace: type-checked rules, layer boundaries, and the rule that
// only env modules read process.env (see CONVENTIONS.md).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.next/**",
      "**/dist/**",
      ".data/**",
      "packages/db/src/generated/**",
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
