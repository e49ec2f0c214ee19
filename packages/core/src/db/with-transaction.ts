import type { PoolClient } from "pg";

/** What `withTransaction` needs: a `pg.Pool` (or anything that hands out pooled clients). */
export interface Connectable {
  connect(): Promise<PoolClient>;
}

/**
 * Runs `fn` inside BEGIN/COMMIT on one pooled connection and rolls back when it throws. The
 * client is given back to the pool in every case; a client whose ROLLBACK failed is destroyed
 * rather than reused, because its session state is unknown.
 */
export async function withTransaction<T>(
  pool: Connectable,
  fn: (tx: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // pg emits 'error' on a client whose connection dies, also while it is checked out between two
  // statements (a database restart, a terminated backend), and the pool listens only to idle
  // clients: without this listener that event crashed the process (found by the fault suite's
  // PostgreSQL restart). Statements in flight reject on their own; the listener only marks the
  // client broken so that the pool destroys it instead of handing it out again.
  const onError = (error: Error): void => {
    broken = error;
  };
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    client.off("error", onError);
    client.release(broken);
  }
}
