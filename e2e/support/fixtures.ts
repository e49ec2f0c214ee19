import { expect, test as base } from "@playwright/test";
import pg from "pg";
import { e2eDatabaseUrl } from "./env";

export const test = base.extend<object, { db: pg.Pool }>({
  /**
   * Every test fails on an uncaught exception or console error in the browser: hydration
   * mismatches and failed client fetches only show up there.
   */
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
    });
    await use(page);
    expect(errors, "errors in the browser").toEqual([]);
  },
  /** A pool on the run's database, shared by the tests of one worker. */
  db: [
    async ({ browserName: _browserName }, use) => {
      const pool = new pg.Pool({ connectionString: e2eDatabaseUrl(), max: 2 });
      await use(pool);
      await pool.end();
    },
    { scope: "worker" },
  ],
});

export { expect };
