import { test as base } from "@playwright/test";
import pg from "pg";
import { e2eDatabaseUrl } from "./env";

/** `db`: a pool on the run's database, shared by the tests of one worker. */
export const test = base.extend<object, { db: pg.Pool }>({
  db: [
    async ({ browserName: _browserName }, use) => {
      const pool = new pg.Pool({ connectionString: e2eDatabaseUrl(), max: 2 });
      await use(pool);
      await pool.end();
    },
    { scope: "worker" },
  ],
});

export { expect } from "@playwright/test";
