import type { QueryResult, QueryResultRow } from "pg";

/**
 * What a read needs from the database: a pool or a checked-out client, so callers can run
 * several reads inside one transaction when they need a consistent snapshot.
 */
export interface TQueryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}
