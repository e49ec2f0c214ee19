import "server-only";
import pg from "pg";
import { getWebEnv } from "../env";

// `next dev` re-evaluates modules on every edit; caching the pool on globalThis keeps one pool
// per process instead of leaking a new set of connections per hot reload.
const globalForDb = globalThis as typeof globalThis & { cycliumWebPool?: pg.Pool };

function createPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    application_name: "cyclium-web",
    // The console is read-mostly and polled every ~2 s per open tab; 10 connections serve
    // dozens of operators while leaving the shared database's slots to the workers.
    max: 10,
    idleTimeoutMillis: 30_000,
    // Fail a request (and /api/health) within 5 s when the database is unreachable instead of
    // hanging until the browser gives up.
    connectionTimeoutMillis: 5_000,
  });
  // An idle client whose connection drops emits 'error' on the pool; unhandled, that event
  // would crash the whole web process. The next query simply opens a fresh connection.
  pool.on("error", (error) => {
    console.error("cyclium-web: idle PostgreSQL client error", error);
  });
  return pool;
}

export function getPool(): pg.Pool {
  globalForDb.cycliumWebPool ??= createPool(getWebEnv().DATABASE_URL);
  return globalForDb.cycliumWebPool;
}
