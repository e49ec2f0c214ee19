import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "./pg-error";
import { withTransaction } from "./with-transaction";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

const insert =
  "INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until) VALUES ($1, 'done', 'n', now())";

async function exists(key: string): Promise<boolean> {
  const { rowCount } = await db.pool.query(
    "SELECT 1 FROM cyclium_work_claims WHERE dedupe_key = $1",
    [key],
  );
  return rowCount === 1;
}

describe("withTransaction", () => {
  it("commits what the callback wrote and returns its value", async () => {
    const value = await withTransaction(db.pool, async (tx) => {
      await tx.query(insert, ["tx:commit"]);
      return 42;
    });
    expect(value).toBe(42);
    expect(await exists("tx:commit")).toBe(true);
  });

  it("rolls back and rethrows when the callback throws", async () => {
    let caught: unknown;
    try {
      await withTransaction(db.pool, async (tx) => {
        await tx.query(insert, ["tx:rollback"]);
        await tx.query(insert, ["tx:rollback"]);
      });
    } catch (error) {
      caught = error;
    }
    expect(isUniqueViolation(caught, "cyclium_work_claims_dedupe_key_key")).toBe(true);
    expect(isUniqueViolation(caught, "some_other_index")).toBe(false);
    expect(await exists("tx:rollback")).toBe(false);
    // The connection went back to the pool in a usable state.
    expect((await db.pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("rejects, without crashing the process, when its connection dies between statements", async () => {
    // A pool like the apps' (only idle clients have an 'error' listener), not the test harness's
    // pool, which absorbs every client error.
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    pool.on("error", () => undefined);
    try {
      const attempt = withTransaction(pool, async (tx) => {
        const { rows } = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        const ended = new Promise((resolve) => tx.once("end", resolve));
        // What a database restart does to a transaction that is between two statements.
        await db.pool.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
        await ended;
      });
      await expect(attempt).rejects.toThrow();
      // The dead connection was destroyed, not handed out again.
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
