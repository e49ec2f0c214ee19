import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { childProcessEnv } from "./env";
import { e2eDeploymentPath, e2eRoot, nextBin, repoRoot, webRoot } from "./paths";

// Everything the console's production bundle is built from, the e2e deployment included.
const BUILD_INPUTS = [
  "apps/web/src",
  "apps/web/next.config.ts",
  "apps/web/package.json",
  "apps/web/tsconfig.json",
  "packages/core/src",
  "packages/db/src",
  "packages/demo/src",
  path.relative(repoRoot, path.dirname(e2eDeploymentPath)),
];

/**
 * What the build was made for, next to it; `pnpm start` (scripts/start.ts) writes and reads the
 * same file, so a build for the demo and a build for the e2e deployment replace each other
 * instead of being mistaken for one another.
 */
const builtDeploymentMarker = path.join(webRoot, ".next/cyclium-deployment");

/**
 * The e2e suite runs against `next start` (the production build) of the console bundling the
 * e2e deployment, so it builds the console first whenever the build is missing, was made for
 * another deployment, or is older than any of its sources: a stale bundle would test
 * yesterday's code. Takes ~60 s when needed, nothing otherwise.
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

/** `next build` of the console with CYCLIUM_DEPLOYMENT naming the e2e deployment. */
export function buildWeb(): void {
  // The web package's `build` script is plain `next build`; calling Next's CLI with this Node
  // avoids depending on a `pnpm` binary being on PATH inside the test runner.
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: webRoot,
    stdio: "inherit",
    env: childProcessEnv({ CYCLIUM_DEPLOYMENT: e2eDeploymentPath }),
  });
  if (result.status !== 0) {
    throw new Error(`next build of apps/web failed (exit ${result.status ?? "signal"})`);
  }
  fs.writeFileSync(builtDeploymentMarker, e2eDeploymentPath);
}

function staleReason(): string | undefined {
  const buildId = path.join(webRoot, ".next/BUILD_ID");
  if (!fs.existsSync(buildId)) return "no build yet";
  const marker = fs.existsSync(builtDeploymentMarker)
    ? fs.readFileSync(builtDeploymentMarker, "utf8")
    : "@cyclium/demo";
  if (marker !== e2eDeploymentPath) {
    return `built for CYCLIUM_DEPLOYMENT=${marker}, not ${path.relative(e2eRoot, e2eDeploymentPath)}`;
  }
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
