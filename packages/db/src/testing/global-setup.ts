import pg from "pg";
import { isProcessAlive } from "../embedded/process-alive";
import { prepareTestServer } from "./test-server";

/**
 * Vitest global setup: starts (or reuses) the test PostgreSQL server and builds the migrated
 * template. The workers inherit these variables, and `createTestDatabase()` clones the template.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await prepareTestServer(process.env.DATABASE_URL || undefined);
  process.env.CYCLIUM_TEST_SERVER_URL = server.serverUrl;
  process.env.CYCLIUM_TEST_TEMPLATE_DB = server.templateDatabase;
  // Test databases carry the pid of the run that made them, so that cleanup below only drops
  // those of runs that are gone, never those of another run in progress on the same server.
  process.env.CYCLIUM_TEST_RUN_PID = String(process.pid);
  await dropLeftoverDatabases(server.serverUrl);
  return async () => {
    // Stop the test server we started, unless another test run (a second vitest, Playwright)
    // is still using it: that run will find it stopped otherwise, mid-test.
    if (server.embedded?.startedHere && !(await otherClientsConnected(server.serverUrl))) {
      await server.embedded.stop();
    }
  };
}

async function otherClientsConnected(serverUrl: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  } finally {
    await admin.end();
  }
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
      const pid = Number.parseInt(datname.split("_")[2] ?? "", 10);
      if (Number.isFinite(pid) && isProcessAlive(pid)) continue;
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
