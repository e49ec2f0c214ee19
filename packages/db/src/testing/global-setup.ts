import pg from "pg";
import { prepareTestServer } from "./test-server";

/**
 * Vitest global setup: starts (or reuses) the test PostgreSQL server and builds the migrated
 * template. The workers inherit these variables, and `createTestDatabase()` clones the template.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await prepareTestServer(process.env.DATABASE_URL || undefined);
  process.env.CYCLIUM_TEST_SERVER_URL = server.serverUrl;
  process.env.CYCLIUM_TEST_TEMPLATE_DB = server.templateDatabase;
  await dropLeftoverDatabases(server.serverUrl);
  return async () => {
    if (server.embedded?.startedHere) await server.embedded.stop();
  };
}

/** Databases left by a run that was killed before its files could drop them. */
async function dropLeftoverDatabases(serverUrl: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'cyclium\\_test\\_%'",
    );
    for (const { datname } of rows) {
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
