import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// This module runs in two places: as TypeScript in the checkout (packages/db/src/paths.ts) and
// bundled into the built package (somewhere under dist/, whether the package sits in the
// checkout or in an installed node_modules). Only the build ships its own copy of the
// migrations (dist/migrations, copied by tsup.config.ts), so the two cases are told apart by
// where this file is, relative to the package's root.
const here = path.dirname(fileURLToPath(import.meta.url));

/** The root of the @cyclium/db package: the nearest folder above this file with a package.json. */
export const packageRoot = findPackageRoot(here);

/** True when this code runs from the build (`dist/`), in the checkout or installed. */
const runsFromBuild = path.relative(packageRoot, here).split(path.sep)[0] === "dist";

/**
 * The checkout's root when this package runs inside one (packages/db is two levels below it),
 * else the working directory: an installed package has no checkout.
 */
export const repoRoot = isCheckout(path.resolve(packageRoot, "..", ".."))
  ? path.resolve(packageRoot, "..", "..")
  : process.cwd();

/**
 * Prisma's layout: `<timestamp>_<name>/migration.sql`. From sources: the checkout's
 * `prisma/migrations`; from the build: the copy the package ships in `dist/migrations`, so an
 * installed package applies exactly the migrations of the version installed.
 */
export const migrationsDir = runsFromBuild
  ? path.join(packageRoot, "dist", "migrations")
  : path.join(repoRoot, "prisma", "migrations");

/** Where the embedded clusters keep their data (git-ignored): `<checkout or cwd>/.data`. */
export const dataRoot = path.join(repoRoot, ".data");

function isCheckout(dir: string): boolean {
  return (
    fs.existsSync(path.join(dir, "pnpm-workspace.yaml")) &&
    fs.existsSync(path.join(dir, "prisma", "migrations"))
  );
}

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
