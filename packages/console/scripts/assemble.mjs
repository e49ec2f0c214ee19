// `pnpm pack`'s prepack (and `pnpm --filter @cyclium/console assemble`): lays the console's
// production build out in dist/ as the published package ships it. It reuses apps/web's build
// (`next build`, which the e2e phase makes anyway) when that build is newer than its sources, and
// builds it only otherwise, so a release costs no second build.
//
// dist/
//   .next/            the build, without its cache, its server source maps and .next/node_modules
//                     (links into this checkout's pnpm store, which npm would not pack anyway)
//   externals.json    each hashed name the server chunks require -> the package it links to,
//                     so bin/cyclium-console.mjs can link the installed packages at first start
//   bin/cyclium-console.mjs   the start command (the same file as apps/web's)
//   next.config.mjs   the settings `next start` reads at run time
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = path.resolve(packageDir, "../..");
const webDir = path.join(repoRoot, "apps/web");
const dist = path.join(packageDir, "dist");

/** What the build is made from; a newer file here makes a packed build stale. */
const BUILD_INPUTS = [
  "apps/web/src",
  "apps/web/next.config.ts",
  "apps/web/package.json",
  "apps/web/tsconfig.json",
  "packages/core/src",
  "packages/db/src",
];
/** Build output a server does not read. */
const LEFT_OUT = new Set(["cache", "node_modules", "diagnostics", "trace", "trace-build", "types"]);

function newestMtime(file) {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) {
    // Prisma's generated client is rewritten by every install and is not part of the console.
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

function staleReason() {
  const buildId = path.join(webDir, ".next/BUILD_ID");
  if (!fs.existsSync(buildId)) return "no build yet";
  const builtAt = fs.statSync(buildId).mtimeMs;
  const changed = BUILD_INPUTS.find((input) => newestMtime(path.join(repoRoot, input)) > builtAt);
  return changed ? `${changed} changed since the last build` : undefined;
}

/**
 * Waits while a `next build` of apps/web runs (test:all builds the console beside the tests that
 * pack it): its build is then the one to reuse, and a second build beside it would fail on Next's
 * lock. Probed with Next's own lock (an OS lock, so a file left by a killed build does not count).
 */
async function waitForRunningBuild() {
  const lockPath = path.join(webDir, ".next/lock");
  if (!fs.existsSync(lockPath)) return;
  const requireFromWeb = createRequire(path.join(webDir, "package.json"));
  await requireFromWeb("next/dist/build/swc/index.js").loadBindings();
  const { Lockfile } = requireFromWeb("next/dist/build/lockfile.js");
  const deadline = Date.now() + 15 * 60_000;
  let said = false;
  while (fs.existsSync(lockPath) && Date.now() < deadline) {
    const lock = Lockfile.tryAcquire(lockPath, false);
    if (lock) {
      lock.unlockSync();
      return;
    }
    if (!said) process.stderr.write("@cyclium/console: waiting for the next build under way…\n");
    said = true;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

await waitForRunningBuild();
const reason = staleReason();
if (reason) {
  process.stderr.write(`@cyclium/console: building the console (${reason})…\n`);
  const nextBin = createRequire(path.join(webDir, "package.json")).resolve("next/dist/bin/next");
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: webDir, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`next build of apps/web failed (${result.status})`);
} else {
  process.stderr.write("@cyclium/console: reusing apps/web's build\n");
}

/** Hashed external name -> package name, read from the build's links into the pnpm store. */
function externals() {
  const links = path.join(webDir, ".next/node_modules");
  const found = {};
  if (!fs.existsSync(links)) return found;
  const visit = (dir, prefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith("@") && entry.isDirectory()) {
        visit(path.join(dir, entry.name), `${entry.name}/`);
        continue;
      }
      const target = fs.readlinkSync(path.join(dir, entry.name));
      const name = target.split("node_modules/").pop().replace(/\/$/, "");
      found[`${prefix}${entry.name}`] = name;
    }
  };
  visit(links, "");
  return found;
}

const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));
const linked = externals();
// Every package the server requires at run time must reach a team's install as a dependency.
const undeclared = Object.values(linked).filter((name) => !(name in manifest.dependencies));
if (undeclared.length > 0) {
  throw new Error(
    `@cyclium/console: the build requires ${undeclared.join(", ")} at run time; add them to packages/console/package.json dependencies.`,
  );
}

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(path.join(dist, "bin"), { recursive: true });
fs.cpSync(path.join(webDir, ".next"), path.join(dist, ".next"), {
  recursive: true,
  filter: (source) => {
    const relative = path.relative(path.join(webDir, ".next"), source);
    // Server source maps are three quarters of the build (25 of 34 MB) and only map a logged
    // stack back to the console's own sources; without them the packed console is small enough
    // for a registry's default upload limit (Verdaccio's 10 MB).
    return (
      !LEFT_OUT.has(relative.split(path.sep)[0]) &&
      !relative.endsWith(".nft.json") &&
      !(relative.startsWith(`server${path.sep}`) && relative.endsWith(".map"))
    );
  },
});
fs.writeFileSync(path.join(dist, "externals.json"), `${JSON.stringify(linked, null, 2)}\n`);
fs.copyFileSync(
  path.join(webDir, "bin/cyclium-console.mjs"),
  path.join(dist, "bin/cyclium-console.mjs"),
);
fs.chmodSync(path.join(dist, "bin/cyclium-console.mjs"), 0o755);
// apps/web/next.config.ts's run-time settings (the rest only shapes the build, done already).
fs.writeFileSync(
  path.join(dist, "next.config.mjs"),
  "// The console's run-time settings; the build was made from apps/web/next.config.ts.\n" +
    "export default { poweredByHeader: false, reactStrictMode: true };\n",
);
process.stderr.write(`@cyclium/console: dist/ ready (${Object.keys(linked).length} externals)\n`);
