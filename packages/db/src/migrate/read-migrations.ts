import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

export interface MigrationFile {
  /** The folder name, e.g. `20261129000000_init`: Prisma's `migration_name`. */
  name: string;
  sql: string;
  /** sha256 of the file as stored, hex, the way Prisma computes `checksum`. */
  checksum: string;
}

const NAME = /^\d{14}_[a-z0-9_]+$/;

/** Reads `prisma/migrations/<timestamp>_<name>/migration.sql` in name (= time) order. */
export async function readMigrations(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await fs.readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrations: MigrationFile[] = [];
  for (const name of names) {
    if (!NAME.test(name)) {
      throw new Error(
        `Migration folder "${name}" is not named <14-digit timestamp>_<snake_case name>`,
      );
    }
    const sql = await fs.readFile(path.join(migrationsDir, name, "migration.sql"), "utf8");
    migrations.push({ name, sql, checksum: checksumOf(sql) });
  }
  return migrations;
}

export function checksumOf(script: string): string {
  return createHash("sha256").update(script, "utf8").digest("hex");
}

/**
 * Prisma accepts a recorded checksum when it matches the script with either line ending, so a
 * checkout with CRLF line endings (git on Windows) is not mistaken for an edited migration.
 */
export function checksumMatches(script: string, recorded: string): boolean {
  const lf = script.replace(/\r\n/g, "\n");
  const crlf = lf.replace(/\n/g, "\r\n");
  return [script, lf, crlf].some((variant) => checksumOf(variant) === recorded);
}
