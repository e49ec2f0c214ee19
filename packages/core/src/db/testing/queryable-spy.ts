import type { QueryResult, QueryResultRow } from "pg";
import type { Queryable } from "../queryable";

/** A Queryable that records every statement and, while `broken`, rejects like a lost connection. */
export interface QueryableSpy extends Queryable {
  readonly calls: { text: string; params: unknown[] | undefined }[];
  /** Make every following query reject (simulated database loss) or work again. */
  setBroken(broken: boolean): void;
}

export function spyQueryable(inner?: Queryable): QueryableSpy {
  const calls: { text: string; params: unknown[] | undefined }[] = [];
  let broken = false;
  return {
    calls,
    setBroken(value: boolean) {
      broken = value;
    },
    async query<R extends QueryResultRow = QueryResultRow>(
      text: string,
      params?: unknown[],
    ): Promise<QueryResult<R>> {
      calls.push({ text, params });
      if (broken) throw new Error("Connection terminated unexpectedly (simulated)");
      if (!inner) throw new Error("spyQueryable has no database behind it");
      return inner.query<R>(text, params);
    },
  };
}
