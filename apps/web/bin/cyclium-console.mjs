#!/usr/bin/env node
// `cyclium-console [next start options]`: the console's production build (`next build` of this
// app) served by `next start`, for the deployment CYCLIUM_DEPLOYMENT names. One build serves any
// deployment: the console imports the module when it starts (SPEC section 13), so a team points
// CYCLIUM_DEPLOYMENT at its own compiled module, anywhere on disk, and runs this from its own
// directory. A relative path or a package name is resolved from the directory the command runs
// in (an npm script's is its package's), then from this app (the demo); a
// TypeScript module (this repository's demo and e2e deployments) is loaded through tsx.
// SIGTERM and SIGINT are passed on; the console marks its node stopped and exits.
// The same file starts the published package (@cyclium/console), whose build sits beside it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const given = process.env.CYCLIUM_DEPLOYMENT?.trim();
const setting = given || "@cyclium/demo";
const base = process.cwd();
const webDir = fileURLToPath(new URL("..", import.meta.url));
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

function resolveDeployment(specifier) {
  const isPath =
    specifier.startsWith(".") ||
    path.isAbsolute(specifier) ||
    fs.existsSync(path.resolve(base, specifier));
  if (isPath) {
    const file = path.resolve(base, specifier);
    if (!fs.existsSync(file)) {
      console.error(
        `CYCLIUM_DEPLOYMENT=${specifier}: no such file (${file}); give the path of your compiled deployment module, e.g. $PWD/dist/deployment.js.`,
      );
      process.exit(2);
    }
    return file;
  }
  for (const from of [base, webDir]) {
    try {
      return createRequire(path.join(from, "package.json")).resolve(specifier);
    } catch {
      // Not resolvable from here (or ESM-only): try the next place.
    }
  }
  // An ESM-only package cannot be resolved by require; one that is not installed at all is a
  // start-up error here rather than a console serving pages without its node.
  const name = specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
  if (!installedPackageDir(name, base) && !installedPackageDir(name, webDir)) {
    console.error(
      given
        ? `CYCLIUM_DEPLOYMENT=${specifier}: no such package installed in ${base}; give a package name your project depends on, or the path of your compiled deployment module, e.g. ./dist/deployment.js.`
        : `CYCLIUM_DEPLOYMENT is not set: point it at your compiled deployment module, e.g. CYCLIUM_DEPLOYMENT=./dist/deployment.js.`,
    );
    process.exit(2);
  }
  return specifier;
}

/** tsx's loader for a TypeScript deployment; a published install has none unless the team adds it. */
function typescriptLoader(file) {
  try {
    return import.meta.resolve("tsx");
  } catch {
    console.error(
      `CYCLIUM_DEPLOYMENT=${file} is TypeScript: compile it (tsc) and point CYCLIUM_DEPLOYMENT at the .js file, or install tsx beside the console.`,
    );
    process.exit(2);
  }
}

/**
 * Turbopack requires each server-external package (pg, pino, ...) under a hashed name it links in
 * .next/node_modules at build time. A published install has no such links (npm packs no
 * node_modules), so they are made here, once, to the packages npm installed for the console:
 * externals.json, written when the package is packed, maps each hashed name to its package.
 */
function linkExternals() {
  const manifest = path.join(webDir, "externals.json");
  if (!fs.existsSync(manifest)) return;
  const links = path.join(webDir, ".next/node_modules");
  for (const [hashed, name] of Object.entries(JSON.parse(fs.readFileSync(manifest, "utf8")))) {
    const link = path.join(links, hashed);
    if (fs.existsSync(link)) continue;
    const target = installedPackageDir(name, webDir);
    if (!target) {
      console.error(`${name} is not installed: reinstall @cyclium/console (npm install).`);
      process.exit(2);
    }
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.rmSync(link, { force: true });
    fs.symlinkSync(target, link, "dir");
  }
}

/** The folder of an installed package, looked up the way Node would from `from`. */
function installedPackageDir(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

linkExternals();
const deployment = resolveDeployment(setting);
const typescript = /\.[cm]?tsx?$/.test(deployment);
const args = [
  ...(typescript ? ["--import", typescriptLoader(deployment)] : []),
  nextBin,
  "start",
  webDir,
  ...process.argv.slice(2),
];
const child = spawn(process.execPath, args, {
  cwd: base,
  stdio: "inherit",
  // Next's own handler would exit at once on SIGTERM; the console's (start-console-node.ts) marks
  // its node stopped first, then exits.
  env: { ...process.env, CYCLIUM_DEPLOYMENT: deployment, NEXT_MANUAL_SIG_HANDLE: "true" },
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => child.kill(signal));
}
// Started through npm (`npx cyclium-console`, an npm script), a SIGTERM reaches npm, which exits
// without passing it on (npm 11): the console was left serving, orphaned. Under npm, npm's exit
// is the stop signal: the parent is watched and its disappearance stops the console like SIGTERM.
if (process.env.npm_command) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    child.kill("SIGTERM");
  }, 500);
  watch.unref();
}
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal === "SIGTERM" || signal === "SIGINT" ? 0 : 1));
});
