import type { QueryResult, QueryResultRow } from "pg";

/**
 * Anything that runs one parameterised query: a `pg.Pool`, a `pg.Client`, or the `PoolClient` of
 * an open transaction. Structural on purpose, so domain functions can be handed the caller's
 * transaction, and tests can wrap a pool to count or break queries.
 */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(
    text: string,
    params?: unknown[],
  ): Promise<QueryResult<R>>;
}
