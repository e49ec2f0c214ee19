import { execFile } from "node:child_process";
import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { dataRoot } from "@cyclium/db";
import type { BenchSystem } from "../systems/system";
import type { BuiltinSystemId } from "../systems/system-id";

const run = promisify(execFile);
const PNPM = ["-y", "pnpm@10.34.8"];
const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * `--baseline <ref>`: cyclium as the commit `ref` built it, in the same run as the current one.
 * The commit is checked out once as a git worktree under `.data/bench-baseline/<sha>` (ignored
 * with the rest of `.data/`), its dependencies installed from the pnpm store without the network,
 * and then reused by later runs. The parent loads that checkout's own cyclium system (its
 * migrations, seed and exactly-once check, which may differ from today's schema) and its worker
 * processes run that checkout's bench child, so the drain and the latency run on its core.
 * `cyclium-limited@<sha>` comes too when `cyclium-limited` is among the systems run.
 */
export async function prepareBaseline(
  ref: string,
  ids: readonly BaselineOf[],
  log: (message: string) => void,
): Promise<BenchSystem[]> {
  const git = async (...args: string[]) =>
    (await run("git", args, { cwd: HERE, maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
  const sha = await git("rev-parse", "--verify", `${ref}^{commit}`);
  const short = sha.slice(0, 7);
  const dir = path.join(dataRoot, "bench-baseline", sha);
  if (!(await exists(path.join(dir, ".git")))) {
    log(`baseline ${short}: git worktree in ${dir}`);
    await git("worktree", "add", "--detach", dir, sha);
  }
  if (!(await exists(path.join(dir, "node_modules", ".modules.yaml")))) {
    log(`baseline ${short}: pnpm install from the store (offline)`);
    await install(dir).catch(async (error: unknown) => {
      log(`offline install failed (${(error as Error).message.split("\n")[0]}); --prefer-offline`);
      await run("npx", [...PNPM, "install", "--frozen-lockfile", "--prefer-offline"], {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      });
    });
  }
  const built = await buildIfItBuilds(dir);
  if (built) log(`baseline ${short}: @cyclium/db and @cyclium/core built, its workers run dist/`);
  else log(`baseline ${short}: no build at that commit, its workers run its TypeScript source`);
  const entry = path.join(dir, "bench", "src", "child", "main.ts");
  const module = (await import(
    pathToFileURL(path.join(dir, "bench", "src", "systems", "cyclium", "system.ts")).href
  )) as { cycliumSystem?: BenchSystem; cycliumLimitedSystem?: BenchSystem };
  return ids.flatMap((id) => {
    const base = id === "cyclium" ? module.cycliumSystem : module.cycliumLimitedSystem;
    if (base === undefined) {
      // A commit from before limits has no limited system: the rest still compares.
      log(`baseline ${short}: no bench ${id} system there, ${id} runs without its baseline`);
      return [];
    }
    return [
      {
        ...base,
        id: `${id}@${short}`,
        label: `${base.label}@${short}`,
        settings: `${base.settings}; schema, seed, core and worker of ${short} (.data/bench-baseline/${short}…), ${built ? "its build" : "from source through tsx (no build at that commit, as it shipped)"}`,
        child: { entry, system: id },
      },
    ];
  });
}

/** The systems a `--baseline` run measures at the earlier commit too. */
export type BaselineOf = Extract<BuiltinSystemId, "cyclium" | "cyclium-limited">;

async function install(dir: string): Promise<void> {
  await run("npx", [...PNPM, "install", "--frozen-lockfile", "--offline"], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * A commit that builds its packages (a `cyclium-build` condition, from 161b357) is built as this
 * checkout is, so that its workers resolve to dist/ under the launcher's condition; an earlier one
 * has no build and runs from source, as its worker did (`tsx src/main.ts`).
 */
async function buildIfItBuilds(dir: string): Promise<boolean> {
  const manifest = JSON.parse(
    await readFile(path.join(dir, "packages", "core", "package.json"), "utf8"),
  ) as { scripts?: Record<string, string> };
  if (manifest.scripts?.build === undefined) return false;
  await run("npx", [...PNPM, "--filter", "@cyclium/db", "--filter", "@cyclium/core", "build"], {
    cwd: dir,
    maxBuffer: 64 * 1024 * 1024,
  });
  return true;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
