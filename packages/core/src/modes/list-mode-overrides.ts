import type { Queryable } from "../db/index";
import type { ModeOverride } from "./mode";
import { MODE_OVERRIDE_COLUMNS, toModeOverride, type ModeOverrideRow } from "./mode-override-row";

export interface ListModeOverridesOptions {
  db: Queryable;
  /** Only these targets (a node's sync passes ['*', itself]); omit for every row. */
  targetNodes?: readonly string[];
}

/**
 * Override rows, node-wide before per-actor. Cheap enough to run every second per node: the table
 * holds a handful of rows per node and the filter uses the (target_node, actor_id) unique index.
 */
export async function listModeOverrides({
  db,
  targetNodes,
}: ListModeOverridesOptions): Promise<ModeOverride[]> {
  const { rows } = await db.query<ModeOverrideRow>(
    `SELECT ${MODE_OVERRIDE_COLUMNS}
     FROM cyclium_mode_overrides
     WHERE $1::text[] IS NULL OR target_node = ANY($1::text[])
     ORDER BY target_node, actor_id NULLS FIRST`,
    [targetNodes ?? null],
  );
  return rows.map(toModeOverride);
}
