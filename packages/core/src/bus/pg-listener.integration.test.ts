import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { notify } from "./notify";
import { PgListener } from "./pg-listener";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function backendsListeningAs(applicationName: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
    [applicationName],
  );
  return rows[0]?.n ?? 0;
}

describe("PgListener", () => {
  it("serves several channels on one connection and re-LISTENs all of them after a reconnect", async () => {
    const listener = new PgListener({
      connection: db.url,
      applicationName: "listener-under-test",
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    await listener.start();
    const wakeUps: string[] = [];
    const modeChanges: string[] = [];
    const reconnects = vi.fn();
    listener.onReconnect(reconnects);
    await listener.listen("cyclium_trigger_requests", (payload) => void wakeUps.push(payload));
    await listener.listen("cyclium_modes", (payload) => void modeChanges.push(payload));
    try {
      expect(await backendsListeningAs("listener-under-test")).toBe(1);

      await notify({ db: db.pool, channel: "cyclium_trigger_requests", payload: "42" });
      await notify({ db: db.pool, channel: "cyclium_modes", payload: "*" });
      await vi.waitFor(() => {
        expect(wakeUps).toEqual(["42"]);
        expect(modeChanges).toEqual(["*"]);
      });

      const oldPid = listener.backendPid;
      await db.pool.query("SELECT pg_terminate_backend($1)", [oldPid]);
      await vi.waitFor(() => {
        expect(listener.isConnected).toBe(true);
        expect(listener.backendPid).not.toBe(oldPid);
      });
      expect(reconnects).toHaveBeenCalledTimes(1);

      await notify({ db: db.pool, channel: "cyclium_trigger_requests", payload: "43" });
      await notify({ db: db.pool, channel: "cyclium_modes", payload: "worker-1" });
      await vi.waitFor(() => {
        expect(wakeUps).toEqual(["42", "43"]);
        expect(modeChanges).toEqual(["*", "worker-1"]);
      });
    } finally {
      await listener.close();
    }
    expect(await backendsListeningAs("listener-under-test")).toBe(0);
  });

  it("keeps retrying with backoff while the database refuses connections", async () => {
    const failures: number[] = [];
    const listener = new PgListener({
      connection: db.url,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
      logger: {
        debug: () => {},
        info: () => {},
        error: () => {},
        warn: (obj, msg) => {
          if (msg?.includes("reconnect failed")) failures.push(Date.now());
        },
      },
    });
    await listener.start();
    const received: string[] = [];
    await listener.listen("cyclium_trigger_requests", (p) => void received.push(p));
    // A database cannot refuse connections to itself: switch it from the server's admin database.
    const admin = new pg.Client({ connectionString: process.env.CYCLIUM_TEST_SERVER_URL });
    await admin.connect();
    const database = pg.escapeIdentifier(db.name);
    try {
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
      await db.pool.query("SELECT pg_terminate_backend($1)", [listener.backendPid]);
      await vi.waitFor(() => expect(failures.length).toBeGreaterThanOrEqual(3));
      expect(listener.isConnected).toBe(false);
    } finally {
      await admin.query(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    try {
      await vi.waitFor(() => expect(listener.isConnected).toBe(true));
      await notify({ db: db.pool, channel: "cyclium_trigger_requests", payload: "back" });
      await vi.waitFor(() => expect(received).toEqual(["back"]));
    } finally {
      await listener.close();
    }
  });

  it("stops delivering a channel once its last handler unsubscribes", async () => {
    const listener = new PgListener({ connection: db.url });
    await listener.start();
    try {
      const first: string[] = [];
      const second: string[] = [];
      const offFirst = await listener.listen("Mixed_Case", (p) => void first.push(p));
      const offSecond = await listener.listen("Mixed_Case", (p) => void second.push(p));

      await notify({ db: db.pool, channel: "Mixed_Case", payload: "a" });
      await vi.waitFor(() => expect(second).toEqual(["a"]));
      await offFirst();
      await notify({ db: db.pool, channel: "Mixed_Case", payload: "b" });
      await vi.waitFor(() => expect(second).toEqual(["a", "b"]));
      expect(first).toEqual(["a"]);

      await offSecond();
      const { rows } = await db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_listening_channels()",
      );
      // pg_listening_channels() is per session; the pool's session listens to nothing.
      expect(rows[0]?.n).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it("fails start() when the database cannot be reached, so bad configuration shows at boot", async () => {
    const unreachable = new URL(db.url);
    unreachable.port = "1";
    const listener = new PgListener({
      connection: { connectionString: unreachable.toString(), connectionTimeoutMillis: 2_000 },
    });
    await expect(listener.start()).rejects.toThrow();
    await listener.close();
  });

  it("rejects channel names PostgreSQL would truncate", async () => {
    const listener = new PgListener({ connection: db.url });
    await expect(listener.listen("x".repeat(64), () => {})).rejects.toThrow(/63 bytes/);
    await listener.close();
  });
});
