import { randomUUID } from "node:crypto";
import pg from "pg";
import { checksumMatches, readMigrations, type MigrationFile } from "./read-migrations";

export interface MigrateOptions {
  url: string;
  migrationsDir: string;
  log?: (message: string) => void;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

/**
 * The key `prisma migrate deploy` takes with pg_advisory_lock, so our migrator and Prisma's
 * exclude each other as well as several of our own processes starting at once.
 */
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

/** Prisma's own bookkeeping table, created exactly as its migration engine creates it. */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies pending migrations in order, each in its own transaction together with its
 * `_prisma_migrations` row, under a session advisory lock. Refuses to run when an applied
 * migration's file has changed or when a migration failed earlier and was never resolved.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const log = options.log ?? (() => undefined);
  const migrations = await readMigrations(options.migrationsDir);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at
         FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    verifyHistory(migrations, applied);

    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      if (applied.has(migration.name)) {
        result.alreadyApplied.push(migration.name);
        continue;
      }
      await applyOne(client, migration);
      log(`Applied migration ${migration.name}`);
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await client
      .query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK_KEY])
      .catch(() => undefined);
    await client.end();
  }
}

function verifyHistory(migrations: MigrationFile[], applied: Map<string, AppliedRow>) {
  const byName = new Map(migrations.map((migration) => [migration.name, migration]));
  for (const row of applied.values()) {
    if (row.finished_at === null) {
      throw new MigrationError(
        `Migration ${row.migration_name} started but never finished. Inspect the database, then mark it ` +
          `rolled back (UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = ` +
          `'${row.migration_name}') before migrating again.`,
      );
    }
    const file = byName.get(row.migration_name);
    if (!file) {
      throw new MigrationError(
        `Migration ${row.migration_name} is applied to the database but missing from the migrations folder.`,
      );
    }
    if (!checksumMatches(file.sql, row.checksum)) {
      throw new MigrationError(
        `Migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum} in the ` +
          `database, ${file.checksum} on disk). Applied migrations must not change: restore the file and put ` +
          `the change in a new migration.`,
      );
    }
  }
}

async function applyOne(client: pg.Client, migration: MigrationFile) {
  await client.query("BEGIN");
  try {
    // Simple-query protocol (no parameters) runs a multi-statement script in one round trip.
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, NULL, now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${message}`);
  }
}
