import { createHash } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from "../embedded/embedded-postgres";
import { migrate } from "../migrate/migrate";
import { readMigrations } from "../migrate/read-migrations";
import { dataRoot, migrationsDir } from "../paths";

export interface TestServer {
  /** Maintenance database URL of the server (for CREATE/DROP DATABASE). */
  serverUrl: string;
  /** Name of the migrated template database that test databases are cloned from. */
  templateDatabase: string;
  embedded?: EmbeddedPostgres;
}

/** Replaces the database name of a connection string. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * The server that test databases live on: the server of DATABASE_URL when it is set, else a
 * test-only embedded cluster under `.data/pg-test` (fsync off: it holds nothing worth keeping).
 * Builds the migrated template once per migration set; its name carries a hash of the
 * migrations, so editing or adding one builds a fresh template.
 */
export async function prepareTestServer(databaseUrl: string | undefined): Promise<TestServer> {
  let serverUrl: string;
  let embedded: EmbeddedPostgres | undefined;
  if (databaseUrl) {
    serverUrl = withDatabase(databaseUrl, "postgres");
  } else {
    embedded = await ensureEmbeddedPostgres({
      dataDir: path.join(dataRoot, "pg-test"),
      database: "postgres",
      durability: "fast",
    });
    serverUrl = embedded.serverUrl;
  }
  const migrations = await readMigrations(migrationsDir);
  const hash = createHash("sha256")
    .update(migrations.map((m) => `${m.name}:${m.checksum}`).join("\n"))
    .digest("hex")
    .slice(0, 12);
  const templateDatabase = `cyclium_template_${hash}`;
  await buildTemplate(serverUrl, templateDatabase);
  return { serverUrl, templateDatabase, ...(embedded ? { embedded } : {}) };
}

async function buildTemplate(serverUrl: string, templateDatabase: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    // Serialise template builds of concurrent test runs (vitest and Playwright may overlap).
    await admin.query("SELECT pg_advisory_lock(hashtext('cyclium_test_template'))");
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      templateDatabase,
    ]);
    if (found.rowCount === 0) {
      const building = `${templateDatabase}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(building)} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(building)}`);
      await migrate({ url: withDatabase(serverUrl, building), migrationsDir });
      // Rename only when complete, so an interrupted build is never used as a template.
      await admin.query(
        `ALTER DATABASE ${pg.escapeIdentifier(building)} RENAME TO ${pg.escapeIdentifier(templateDatabase)}`,
      );
    }
  } finally {
    await admin
      .query("SELECT pg_advisory_unlock(hashtext('cyclium_test_template'))")
      .catch(() => undefined);
    await admin.end();
  }
}
