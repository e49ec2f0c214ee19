export {
  createTestDatabase,
  type CreateTestDatabaseOptions,
  type TestDatabase,
} from "./create-test-database";
export { prepareTestServer, withDatabase, type TestServer } from "./test-server";
export { startPrivateTestServer, type PrivateTestServer } from "./private-test-server";
// A TCP port for a child process to listen on (test servers, the e2e console, pgbouncer).
export { freePort } from "../embedded/embedded-postgres";
// Prisma Client is not part of the runtime API: core's statements are SQL on one pg pool (see
// docs/schema.md for the measurement). It stays here for the benchmark that compares the two.
export { createPrismaClient, PrismaClient } from "../prisma-client";
