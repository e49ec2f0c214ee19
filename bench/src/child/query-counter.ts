import pg from "pg";

let queries = 0;

/**
 * Counts every query of every pg client in this process: the round trips a system makes per item.
 * graphile-worker, pg-boss and our core all resolve the same `pg` module (one version in the
 * workspace), so patching its Client prototype sees all three.
 */
export function countQueries(): () => number {
  const prototype = pg.Client.prototype;
  const original: unknown = Reflect.get(prototype, "query");
  if (typeof original !== "function") throw new Error("pg.Client has no query method");
  const counted = function (this: pg.Client, ...args: unknown[]): unknown {
    queries += 1;
    return Reflect.apply(original, this, args);
  };
  Reflect.set(prototype, "query", counted);
  return () => queries;
}
