import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyDatabaseError } from "./transient-error";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("port")),
      );
    });
  });
}

describe("classifyDatabaseError on errors pg really raises", () => {
  it("a refused connection (server down) is transient", async () => {
    const port = await closedPort();
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/x` });
    pool.on("error", () => undefined);
    try {
      const error = await rejection(pool.query("SELECT 1"));
      expect(classifyDatabaseError(error)).toEqual({ kind: "transient", code: "ECONNREFUSED" });
    } finally {
      await pool.end();
    }
  });

  it("a backend terminated under a query (pg_terminate_backend, a restart) is transient", async () => {
    const client = new pg.Client({ connectionString: db.url });
    client.on("error", () => undefined);
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const running = rejection(client.query("SELECT pg_sleep(5)"));
      // Bounded: pg_sleep runs for 5 s at most; the terminate lands well before.
      await db.pool.query(
        "SELECT pg_terminate_backend($1) FROM pg_stat_activity WHERE pid = $1 AND state = 'active'",
        [rows[0]?.pid],
      );
      const error = await running;
      const verdict = classifyDatabaseError(error);
      expect(verdict.kind).toBe("transient");
      // 57P01 admin_shutdown when the FATAL message arrives, else pg's own "Connection terminated".
      expect(["57P01", "connection_lost"]).toContain(verdict.code);
      // The dead client used again.
      const reused = await rejection(client.query("SELECT 1"));
      expect(classifyDatabaseError(reused).kind).toBe("transient");
    } finally {
      await client.end().catch(() => undefined);
    }
  });

  it("a deadlock (40P01) is transient", async () => {
    await db.pool.query("CREATE TABLE deadlock_probe (id int PRIMARY KEY)");
    await db.pool.query("INSERT INTO deadlock_probe VALUES (1), (2)");
    const a = await db.pool.connect();
    const b = await db.pool.connect();
    try {
      await a.query("BEGIN");
      await b.query("BEGIN");
      await a.query("SET LOCAL deadlock_timeout = '50ms'");
      await b.query("SET LOCAL deadlock_timeout = '50ms'");
      await a.query("UPDATE deadlock_probe SET id = id WHERE id = 1");
      await b.query("UPDATE deadlock_probe SET id = id WHERE id = 2");
      const results = await Promise.allSettled([
        a.query("UPDATE deadlock_probe SET id = id WHERE id = 2"),
        b.query("UPDATE deadlock_probe SET id = id WHERE id = 1"),
      ]);
      const failed = results.filter((r) => r.status === "rejected");
      expect(failed).toHaveLength(1);
      expect(classifyDatabaseError(failed[0]?.reason)).toEqual({
        kind: "transient",
        code: "40P01",
      });
    } finally {
      await a.query("ROLLBACK").catch(() => undefined);
      await b.query("ROLLBACK").catch(() => undefined);
      a.release();
      b.release();
    }
  });

  it("a constraint violation, a syntax error and a bad cast are permanent", async () => {
    await db.pool.query("CREATE TABLE unique_probe (id int PRIMARY KEY)");
    await db.pool.query("INSERT INTO unique_probe VALUES (1)");
    const unique = await rejection(db.pool.query("INSERT INTO unique_probe VALUES (1)"));
    expect(classifyDatabaseError(unique)).toEqual({ kind: "permanent", code: "23505" });
    const syntax = await rejection(db.pool.query("SELEC 1"));
    expect(classifyDatabaseError(syntax)).toEqual({ kind: "permanent", code: "42601" });
    const cast = await rejection(db.pool.query("SELECT 'x'::uuid"));
    expect(classifyDatabaseError(cast)).toEqual({ kind: "permanent", code: "22P02" });
  });

  it("a pool that was ended, and a plain bug, are permanent", async () => {
    const pool = new pg.Pool({ connectionString: db.url });
    await pool.end();
    const ended = await rejection(pool.query("SELECT 1"));
    expect(classifyDatabaseError(ended).kind).toBe("permanent");
    expect(classifyDatabaseError(new TypeError("x is undefined")).kind).toBe("permanent");
  });

  it("looks through a cause chain and an AggregateError", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(classifyDatabaseError(new Error("wrapped", { cause: refused })).kind).toBe("transient");
    expect(classifyDatabaseError(new AggregateError([refused])).kind).toBe("transient");
    const startingUp = Object.assign(new Error("the database system is starting up"), {
      code: "57P03",
    });
    expect(classifyDatabaseError(startingUp)).toEqual({ kind: "transient", code: "57P03" });
  });
});
