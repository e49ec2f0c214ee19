import { randomBytes } from "node:crypto";
import pg from "pg";
import { withDatabase } from "./test-server";

export interface TestDatabase {
  /** Connection string of the new database: hand it to child processes. */
  url: string;
  /** A pool on it, closed by `drop()`. */
  pool: pg.Pool;
  name: string;
  /**
   * Another pool on it (a second node, a thief, a racer), with the same handling of clients
   * whose backend goes away; `drop()` ends it if the test did not.
   */
  newPool(options?: { max?: number }): pg.Pool;
  drop(): Promise<void>;
}

export interface CreateTestDatabaseOptions {
  /** Name prefix, `cyclium_test` by default (leftovers with it are dropped by the next run). */
  prefix?: string;
  serverUrl?: string;
  templateDatabase?: string;
  poolSize?: number;
}

/**
 * A fresh, fully migrated database cloned from the template that the global setup built: each
 * test file gets its own, so files run in parallel without seeing each other's rows.
 */
export async function createTestDatabase(
  options: CreateTestDatabaseOptions = {},
): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? process.env.CYCLIUM_TEST_SERVER_URL;
  const template = options.templateDatabase ?? process.env.CYCLIUM_TEST_TEMPLATE_DB;
  if (!serverUrl || !template) {
    throw new Error(
      "No test database server: run tests through the root vitest config (its global setup starts one), " +
        "or pass serverUrl and templateDatabase.",
    );
  }
  const runPid = process.env.CYCLIUM_TEST_RUN_PID ?? String(process.pid);
  const name = `${options.prefix ?? "cyclium_test"}_${runPid}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(
      `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`,
    );
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pools: pg.Pool[] = [];
  const newPool = (max: number): pg.Pool => {
    const pool = new pg.Pool({ connectionString: url, max });
    // A client whose backend goes away (a test cutting connections, or `drop()` terminating a
    // client a test still holds: pool.end() resolves before the backends are gone) must not
    // crash the test process with an unhandled 'error' event; queries on such a client still
    // reject, which is what tests observe.
    pool.on("error", () => undefined);
    pool.on("connect", (client) => client.on("error", () => undefined));
    pools.push(pool);
    return pool;
  };
  const pool = newPool(options.poolSize ?? 10);
  let dropped = false;
  return {
    url,
    pool,
    name,
    newPool: (poolOptions = {}) => newPool(poolOptions.max ?? 10),
    async drop() {
      if (dropped) return;
      dropped = true;
      await Promise.all(pools.filter((open) => !open.ending).map((open) => open.end()));
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
