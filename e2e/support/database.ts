import path from "node:path";
import { dataRoot, ensureEmbeddedPostgres, type EmbeddedPostgres } from "@cyclium/db";
import { createTestDatabase, prepareTestServer, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { configuredDatabaseUrl } from "./env";

// Distinct from vitest's `cyclium_test_` prefix: the vitest global setup drops leftovers with
// that prefix and must not drop the database of an e2e run going on at the same time.
const E2E_PREFIX = "cyclium_e2e";

export interface E2eDatabase {
  url: string;
  /** Drops the database, and stops the embedded server when this run started it. */
  release(): Promise<void>;
}

/**
 * A fresh, migrated database for this run, cloned from the test template on DATABASE_URL's
 * server when it is set, else on an embedded cluster of its own under `.data/pg-e2e`.
 */
export async function provisionE2eDatabase(): Promise<E2eDatabase> {
  // Not vitest's `.data/pg-test` cluster: a vitest run that started that server stops it when it
  // finishes, which would cut an e2e run going on at the same time off its database.
  const configured = configuredDatabaseUrl();
  const embedded: EmbeddedPostgres | undefined = configured
    ? undefined
    : await ensureEmbeddedPostgres({
        dataDir: path.join(dataRoot, "pg-e2e"),
        database: "postgres",
        durability: "fast",
      });
  const server = await prepareTestServer(configured ?? embedded?.serverUrl);
  await dropLeftovers(server.serverUrl);
  const database: TestDatabase = await createTestDatabase({
    prefix: E2E_PREFIX,
    serverUrl: server.serverUrl,
    templateDatabase: server.templateDatabase,
    poolSize: 1,
  });
  return {
    url: database.url,
    async release() {
      await database.drop();
      if (embedded?.startedHere) await embedded.stop();
    },
  };
}

/** Databases of runs that were killed before their teardown (one e2e run at a time). */
async function dropLeftovers(serverUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1",
      [`${E2E_PREFIX}\\_%`],
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
