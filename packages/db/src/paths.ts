import path from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's root: packages/db/src is three levels below it. */
export const repoRoot = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
);

/** Prisma's layout: `prisma/migrations/<timestamp>_<name>/migration.sql`. */
export const migrationsDir = path.join(repoRoot, "prisma", "migrations");

/** Where the embedded clusters keep their data (git-ignored). */
export const dataRoot = path.join(repoRoot, ".data");
