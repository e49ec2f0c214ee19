import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childProcessEnv } from "./env";
import { nextBin, repoRoot, webRoot } from "./paths";

// Everything the console's production bundle is built from. The deployment is not: the console
// imports it when it starts, so one build serves the demo and the e2e deployment alike.
const BUILD_INPUTS = [
  "apps/web/src",
  "apps/web/next.config.ts",
  "apps/web/package.json",
  "apps/web/tsconfig.json",
  "packages/core/src",
  "packages/db/src",
];

/**
 * The e2e suite runs against `next start` (the production build) of the console, so it builds
 * the console first whenever the build is missing or older than any of its sources: a stale
 * bundle would test yesterday's code. Takes ~60 s when needed, nothing otherwise.
 */
export function ensureWebBuild(log: (message: string) => void): void {
  const reason = staleReason();
  if (!reason) {
    log("web build is up to date");
    return;
  }
  log(`building the web app (${reason})…`);
  buildWeb();
}

/** `next build` of the console. */
export function buildWeb(): void {
  // The web package's `build` script is plain `next build`; calling Next's CLI with this Node
  // avoids depending on a `pnpm` binary being on PATH inside the test runner.
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: webRoot,
    stdio: "inherit",
    env: childProcessEnv({}),
  });
  if (result.status !== 0) {
    throw new Error(`next build of apps/web failed (exit ${result.status ?? "signal"})`);
  }
}

function staleReason(): string | undefined {
  const buildId = path.join(webRoot, ".next/BUILD_ID");
  if (!fs.existsSync(buildId)) return "no build yet";
  const builtAt = fs.statSync(buildId).mtimeMs;
  const changed = BUILD_INPUTS.find((input) => newestMtime(path.join(repoRoot, input)) > builtAt);
  return changed ? `${changed} changed since the last build` : undefined;
}

function newestMtime(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) {
    // Generated Prisma client files are rewritten by every install; they follow the schema.
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}
