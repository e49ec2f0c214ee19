// A project outside the workspace, built the way a team builds one: the packages packed with
// `pnpm pack` (each package's prepack builds it first, so nothing stale is reused), installed
// from the tarballs with npm (no workspace links), the getting-started files copied in and
// compiled with tsc against the installed type declarations.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";

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
] as const;

/** The library packages a team installs (core needs db; the cli gives `cyclium migrate`). */
const PACKED = ["db", "core", "cli"] as const;

export interface ScratchProject {
  dir: string;
  /** Seconds each phase took, for the report. */
  timings: Record<string, number>;
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

/** The workspace's pinned pnpm, as CI and the README run it. */
async function pnpmCommand(): Promise<string[]> {
  const root = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as {
    packageManager: string;
  };
  return ["npx", "-y", root.packageManager];
}

/** A version of the workspace catalog (pnpm-workspace.yaml), for the scratch package.json. */
async function catalogVersion(name: string): Promise<string> {
  const yaml = await fs.readFile(path.join(repoRoot, "pnpm-workspace.yaml"), "utf8");
  const match = new RegExp(`^\\s+"?${name.replace("/", "\\/")}"?:\\s*(\\S+)`, "m").exec(yaml);
  if (!match?.[1]) throw new Error(`${name} is not in the workspace catalog`);
  return match[1];
}

export async function createScratchProject(): Promise<ScratchProject> {
  const timings: Record<string, number> = {};
  // os.tmpdir(), never under the checkout: no node_modules above it can lend a workspace link.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cyclium-scratch-"));
  const tarballs = path.join(dir, "tarballs");
  await fs.mkdir(tarballs);
  const [pnpm, ...pnpmArgs] = await pnpmCommand();

  const pack = (name: string) =>
    run(pnpm, [...pnpmArgs, "pack", "--pack-destination", tarballs], {
      cwd: path.join(repoRoot, "packages", name),
      maxBuffer: 16 * 1024 * 1024,
    });
  // db first: core's declaration build reads db's freshly built ones.
  await timed(timings, "pack", async () => {
    await pack("db");
    await Promise.all(PACKED.filter((name) => name !== "db").map(pack));
  });
  const files = await fs.readdir(tarballs);
  const tarball = (name: string) => {
    const file = files.find((f) => f.startsWith(`cyclium-${name}-`) && f.endsWith(".tgz"));
    if (!file) throw new Error(`pnpm pack made no tarball for @cyclium/${name}: ${files.join()}`);
    return `file:tarballs/${file}`;
  };

  const manifest = {
    name: "scratch-team-project",
    private: true,
    type: "module",
    dependencies: {
      "@cyclium/cli": tarball("cli"),
      "@cyclium/core": tarball("core"),
      "@cyclium/db": tarball("db"),
      zod: await catalogVersion("zod"),
    },
    devDependencies: {
      "@types/node": await catalogVersion("@types/node"),
      typescript: await catalogVersion("typescript"),
    },
  };
  await fs.writeFile(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  for (const file of EXAMPLE_FILES) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.copyFile(path.join(exampleRoot, file), path.join(dir, file));
  }

  await timed(timings, "npm install", () =>
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    }),
  );
  await timed(timings, "tsc", () =>
    run(process.execPath, [path.join(dir, "node_modules/typescript/bin/tsc"), "-p", "."], {
      cwd: dir,
    }),
  );
  return {
    dir,
    timings,
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
