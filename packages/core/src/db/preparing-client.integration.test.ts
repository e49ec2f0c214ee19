import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_PREPARED_PER_CONNECTION,
  PREPARE_AFTER_USES,
  PreparingClient,
} from "./preparing-client";
import { withTransaction } from "./with-transaction";

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

// One connection, so every call below runs on the same server session and its prepared statements.
function preparingPool(): pg.Pool {
  pool = new pg.Pool({ connectionString: db.url, max: 1, Client: PreparingClient });
  return pool;
}

afterEach(async () => {
  await pool.end();
});

/** This session's prepared statements: what PostgreSQL itself says it keeps. */
async function prepared(on: pg.Pool): Promise<string[]> {
  const { rows } = await on.query<{ statement: string }>(
    `SELECT statement FROM pg_prepared_statements
      WHERE name LIKE 'cyclium\\_%' AND statement NOT LIKE '%pg_prepared_statements%'
      ORDER BY statement`,
  );
  return rows.map((row) => row.statement);
}

describe("PreparingClient", () => {
  it("prepares a statement on its third use and returns the same rows every time", async () => {
    const on = preparingPool();
    const text = "SELECT $1::int + 1 AS next";
    const results: number[] = [];
    for (let i = 0; i < PREPARE_AFTER_USES - 1; i++) {
      results.push((await on.query<{ next: number }>(text, [i])).rows[0]?.next ?? -1);
    }
    expect(await prepared(on)).toEqual([]);
    for (let i = PREPARE_AFTER_USES - 1; i < 6; i++) {
      results.push((await on.query<{ next: number }>(text, [i])).rows[0]?.next ?? -1);
    }
    expect(results).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await prepared(on)).toEqual([text]);
  });

  it("prepares inside a transaction too, and a failed statement leaves the next one working", async () => {
    const on = preparingPool();
    const text = "SELECT 10 / $1::int AS q";
    await expect(
      withTransaction(on, async (tx) => {
        for (let i = 0; i < PREPARE_AFTER_USES; i++) await tx.query(text, [5]);
        await tx.query(text, [0]);
      }),
    ).rejects.toMatchObject({ code: "22012" });
    const { rows } = await on.query<{ q: number }>(text, [2]);
    expect(rows[0]?.q).toBe(5);
    expect(await prepared(on)).toEqual([text]);
  });

  it("runs a statement unnamed once a migration changed its result columns", async () => {
    preparingPool();
    // One client held for the whole test, as a transaction holds it: the same server session.
    const client = new PreparingClient({ connectionString: db.url });
    await client.connect();
    try {
      await client.query("CREATE TABLE prepared_probe (id int PRIMARY KEY, a text)");
      await client.query("INSERT INTO prepared_probe VALUES (1, 'x')");
      const text = "SELECT * FROM prepared_probe WHERE id = $1";
      for (let i = 0; i < PREPARE_AFTER_USES; i++) await client.query(text, [1]);
      // Another node's migration, on another connection.
      await db.pool.query("ALTER TABLE prepared_probe ADD COLUMN b text DEFAULT 'y'");
      await expect(client.query(text, [1])).rejects.toMatchObject({ code: "0A000" });
      const executions = async () => {
        const { rows } = await client.query<{ n: string }>(
          `SELECT (generic_plans + custom_plans)::text AS n FROM pg_prepared_statements
            WHERE statement = $1`,
          [text],
        );
        return rows[0]?.n;
      };
      const before = await executions();
      expect(before).toBeDefined();
      for (let i = 0; i < PREPARE_AFTER_USES + 1; i++) {
        const { rows } = await client.query(text, [1]);
        expect(rows).toEqual([{ id: 1, a: "x", b: "y" }]);
      }
      // The session still holds the old statement, but nothing executes it any more.
      expect(await executions()).toBe(before);
    } finally {
      await client.end();
    }
  });

  it("passes a query config through as pg runs it", async () => {
    const on = preparingPool();
    for (let i = 0; i < PREPARE_AFTER_USES; i++) {
      const { rows } = await on.query({ text: "SELECT $1::text AS v", values: ["c"] });
      expect(rows[0]).toEqual({ v: "c" });
    }
    expect(await prepared(on)).toEqual([]);
  });

  it("keeps at most MAX_PREPARED_PER_CONNECTION statements per connection", async () => {
    const on = preparingPool();
    for (let n = 0; n < MAX_PREPARED_PER_CONNECTION + 5; n++) {
      for (let i = 0; i < PREPARE_AFTER_USES; i++)
        await on.query(`SELECT ${n} + $1::int AS v`, [i]);
    }
    expect(await prepared(on)).toHaveLength(MAX_PREPARED_PER_CONNECTION);
  });
});
