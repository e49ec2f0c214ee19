export {
  createTestDatabase,
  type CreateTestDatabaseOptions,
  type TestDatabase,
} from "./create-test-database";
export { prepareTestServer, withDatabase, type TestServer } from "./test-server";
export { startPrivateTestServer, type PrivateTestServer } from "./private-test-server";
