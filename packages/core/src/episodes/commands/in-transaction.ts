import type { PoolClient } from "pg";
import { withTransaction, type Connectable, type Queryable } from "../../db/index";

/**
 * Runs a command of several statements atomically: on the caller's transaction when `db` is a
 * checked-out client (an operator's audited transaction), in a transaction of its own when it is
 * a pool.
 */
export async function inTransaction<T>(
  db: Queryable,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return isPool(db) ? withTransaction(db, fn) : fn(db);
}

function isPool(db: Queryable): db is Queryable & Connectable {
  // A pooled client has `release`; a pg.Pool hands clients out with `connect` and has none.
  const candidate = db as Partial<Connectable> & Partial<Pick<PoolClient, "release">>;
  return typeof candidate.connect === "function" && typeof candidate.release !== "function";
}
