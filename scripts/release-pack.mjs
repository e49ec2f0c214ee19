// `pnpm release:pack [--out <dir>]`: builds and packs the publishable packages into one folder
// (default ./release), in dependency order, so a team can install them (npm install ./release/*.tgz)
// or publish them to a registry (npm publish <tarball>). `pnpm pack` runs each package's prepack
// (its build) and rewrites workspace:/catalog: versions and publishConfig.exports, which npm pack
// would not. Prints the tarball paths, one a line, in the order they must be published.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * What gets released, dependencies before dependents (core's declaration build reads db's, the
 * cli depends on both). A package whose folder is missing is skipped with a note, so the console
 * can be listed before it lands; add new packages here.
 */
export const RELEASED = [
  { name: "@cyclium/db", dir: "packages/db" },
  { name: "@cyclium/core", dir: "packages/core" },
  { name: "@cyclium/cli", dir: "packages/cli" },
  { name: "@cyclium/console", dir: "packages/console" },
];

/** The workspace's pinned pnpm (package.json packageManager), run through npx. */
function pnpm(args, cwd) {
  const { packageManager } = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"),
  );
  const npx = path.join(path.dirname(process.execPath), "npx");
  return execFileSync(npx, ["-y", packageManager, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

export function releasePack(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const tarballs = [];
  for (const pkg of RELEASED) {
    const dir = path.join(repoRoot, pkg.dir);
    if (!fs.existsSync(path.join(dir, "package.json"))) {
      process.stderr.write(`release:pack: ${pkg.name} skipped (no ${pkg.dir})\n`);
      continue;
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    if (manifest.name !== pkg.name) {
      throw new Error(`release:pack: ${pkg.dir} holds ${manifest.name}, not ${pkg.name}`);
    }
    // One licence for every package: the repository's, copied in for the pack only.
    const license = path.join(dir, "LICENSE");
    fs.copyFileSync(path.join(repoRoot, "LICENSE"), license);
    try {
      pnpm(["pack", "--pack-destination", outDir], dir);
    } finally {
      fs.rmSync(license, { force: true });
    }
    const file = `${pkg.name.replace("@", "").replace("/", "-")}-${manifest.version}.tgz`;
    const tarball = path.join(outDir, file);
    if (!fs.existsSync(tarball)) throw new Error(`release:pack: pnpm pack made no ${file}`);
    tarballs.push(tarball);
  }
  return tarballs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: "string", default: "release" } } });
  for (const tarball of releasePack(path.resolve(values.out))) process.stdout.write(`${tarball}\n`);
}
