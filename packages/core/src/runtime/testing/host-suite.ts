import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import type pg from "pg";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createHostFixture } from "./host-fixture";

export interface HostSuiteOptions {
  /** How long each host's current steps may finish when it is stopped after a test (ms). */
  stopGraceMs?: number;
}

/**
 * The set-up every ActorHost integration test file shares: its own database, cloned from the
 * migrated template before its tests; the hosts `startHost` started, stopped after each test;
 * the database dropped after the file. Call it once, at the top level of the test file.
 *
 * An `afterEach` the file registers after this call runs before the hosts are stopped (vitest
 * runs after-hooks in reverse order), so it can release what a strategy waits on.
 *
 * Not re-exported from ./index: that index is also loaded outside vitest (child processes,
 * benchmarks), which must not load the test server.
 */
export function useHostSuite(options: HostSuiteOptions = {}) {
  let database: TestDatabase | undefined;
  const db = {
    /** The file's database pool (from `beforeAll` on). */
    get pool(): pg.Pool {
      if (database === undefined) throw new Error("the test database is made in beforeAll");
      return database.pool;
    },
    /** Its connection string, for a listener of its own (from `beforeAll` on). */
    get url(): string {
      if (database === undefined) throw new Error("the test database is made in beforeAll");
      return database.url;
    },
  };
  const fixture = createHostFixture(() => db.pool);

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await fixture.stopAll(options.stopGraceMs);
  });
  afterAll(async () => {
    await database?.drop();
  });

  return { db, ...fixture };
}
