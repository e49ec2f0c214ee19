import type { Queryable } from "../db/index";
import {
  CONCURRENCY_OVERRIDE_COLUMNS,
  toConcurrencyOverride,
  type ConcurrencyOverride,
  type ConcurrencyOverrideRow,
} from "./concurrency-override";

export interface ListConcurrencyOverridesOptions {
  db: Queryable;
  /** Only these targets (a node's sync passes ['*', itself]); omit for every row. */
  targetNodes?: readonly string[];
}

/** Limit rows by target and actor; a handful per node, read with the mode overrides. */
export async function listConcurrencyOverrides({
  db,
  targetNodes,
}: ListConcurrencyOverridesOptions): Promise<ConcurrencyOverride[]> {
  const { rows } = await db.query<ConcurrencyOverrideRow>(
    `SELECT ${CONCURRENCY_OVERRIDE_COLUMNS}
     FROM cyclium_concurrency_overrides
     WHERE $1::text[] IS NULL OR target_node = ANY($1::text[])
     ORDER BY target_node, actor_id`,
    [targetNodes ?? null],
  );
  return rows.map(toConcurrencyOverride);
}
