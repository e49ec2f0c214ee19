// A project outside the workspace, built the way a team builds one: the packages packed by
// `pnpm release:pack` (each package's prepack builds it, so nothing stale is reused), published
// to a throwaway local registry, installed BY NAME with plain npm (`npm install @cyclium/core
// @cyclium/cli zod`, no workspace links, no tarball paths), the getting-started files copied in
// and compiled with tsc against the installed type declarations.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { startLocalRegistry, type LocalRegistry } from "./local-registry";

const run = promisify(execFile);

export const exampleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const repoRoot = path.resolve(exampleRoot, "../..");

/** The files docs/getting-started.md shows, in the order it shows them. */
export const EXAMPLE_FILES = [
  "src/deployment.ts",
  "src/env.ts",
  "src/worker.ts",
  "src/fire.ts",
  "tsconfig.json",
  "src/approval.ts",
] as const;

/** npm as this node ships it, run by this node: nothing taken from PATH. */
const NPM_CLI = path.join(path.dirname(process.execPath), "../lib/node_modules/npm/bin/npm-cli.js");
const BIG = { maxBuffer: 64 * 1024 * 1024 };

/**
 * The environment npm runs with: this one without the `npm_config_*` settings a surrounding
 * `pnpm test:all` exports (its registry among them, which would beat the project's .npmrc and
 * send the install by name to the public registry, where @cyclium is not published).
 */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_config_")),
  );
}

/** Runs npm in `cwd` (quiet: no audit, no fund, errors only). */
export function npm(cwd: string, args: string[]) {
  return run(process.execPath, [NPM_CLI, ...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    env: npmEnv(),
    ...BIG,
  });
}

export interface ScratchProject {
  dir: string;
  /** Seconds each phase took, for the report. */
  timings: Record<string, number>;
  /** The production install (before the dev tools): `du -s node_modules` in bytes, packages. */
  production: { bytes: number; packages: number };
  /** The tarballs `pnpm release:pack` made, in publish order. */
  tarballs: string[];
  registry: LocalRegistry;
  remove(): Promise<void>;
}

async function timed<T>(
  timings: Record<string, number>,
  name: string,
  fn: () => Promise<T>,
): Promise<T> {
  const start = performance.now();
  try {
    return await fn();
  } finally {
    timings[name] = Math.round((performance.now() - start) / 100) / 10;
  }
}

/** A version of the workspace catalog (pnpm-workspace.yaml), for the dev tools. */
async function catalogVersion(name: string): Promise<string> {
  const yaml = await fs.readFile(path.join(repoRoot, "pnpm-workspace.yaml"), "utf8");
  const match = new RegExp(`^\\s+"?${name.replace("/", "\\/")}"?:\\s*(\\S+)`, "m").exec(yaml);
  if (!match?.[1]) throw new Error(`${name} is not in the workspace catalog`);
  return match[1];
}

export async function createScratchProject(): Promise<ScratchProject> {
  const timings: Record<string, number> = {};
  // os.tmpdir(), never under the checkout: no node_modules above it can lend a workspace link.
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "cyclium-scratch-"));
  const dir = path.join(root, "team-project");
  const releaseDir = path.join(root, "release");
  await fs.mkdir(dir);

  const [tarballs, registry] = await Promise.all([
    timed(timings, "release:pack", async () => {
      const { stdout } = await run(
        process.execPath,
        [path.join(repoRoot, "scripts/release-pack.mjs"), "--out", releaseDir],
        { cwd: repoRoot, ...BIG },
      );
      return stdout.split("\n").filter((line) => line.endsWith(".tgz"));
    }),
    timed(timings, "registry start", () => startLocalRegistry(path.join(root, "registry"))),
  ]);
  const auth = `--${registry.url.replace(/^http:/, "")}:_authToken=${registry.token}`;
  await timed(timings, "publish", async () => {
    // In release order: a dependent's install may resolve its dependency at publish time.
    for (const tarball of tarballs) {
      await npm(root, ["publish", tarball, `--registry=${registry.url}`, auth]);
    }
  });

  // The team's project: an .npmrc pointing at the registry, a module package.json, then the
  // guide's install by name. Measured before the dev tools join it.
  await fs.writeFile(path.join(dir, ".npmrc"), `registry=${registry.url}\n`);
  const manifest = { name: "scratch-team-project", private: true, type: "module" };
  await fs.writeFile(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  await timed(timings, "npm install", () =>
    npm(dir, ["install", "@cyclium/core", "@cyclium/cli", "zod"]),
  );
  const production = await measureInstall(dir);
  await timed(timings, "npm install -D", async () =>
    npm(dir, [
      "install",
      "--save-dev",
      `typescript@${await catalogVersion("typescript")}`,
      `@types/node@${await catalogVersion("@types/node")}`,
    ]),
  );
  for (const file of EXAMPLE_FILES) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.copyFile(path.join(exampleRoot, file), path.join(dir, file));
  }
  await timed(timings, "tsc", () =>
    run(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", "."], {
      cwd: dir,
    }),
  );
  return {
    dir,
    timings,
    production,
    tarballs,
    registry,
    remove: async () => {
      await registry.stop();
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

/** What `du -s node_modules` counts (allocated blocks, in JavaScript so no du on PATH is needed)
 * and npm's package count. */
async function measureInstall(dir: string): Promise<{ bytes: number; packages: number }> {
  let bytes = 0;
  const walk = async (at: string): Promise<void> => {
    bytes += (await fs.lstat(at)).blocks * 512;
    for (const entry of await fs.readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else bytes += (await fs.lstat(full)).blocks * 512;
    }
  };
  await walk(path.join(dir, "node_modules"));
  const lock = JSON.parse(await fs.readFile(path.join(dir, "package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  // The lockfile's entries under node_modules/: every installed package, nested ones included.
  const packages = Object.keys(lock.packages).filter((key) => key.startsWith("node_modules/"));
  return { bytes, packages: packages.length };
}
