import { ZMode, type ModeOverride } from "./mode";
import type { ModeOverrideModel } from "@cyclium/db/models";
import type { RowOf } from "../db/row-of";

/** Columns every override query returns, aliased to this shape. */
export const MODE_OVERRIDE_COLUMNS = `id::text AS id, target_node, actor_id, mode, set_by, inserted_at, updated_at`;

export type ModeOverrideRow = RowOf<ModeOverrideModel>;

export function toModeOverride(row: ModeOverrideRow): ModeOverride {
  return {
    id: row.id,
    targetNode: row.target_node,
    actorId: row.actor_id,
    // The CHECK constraint already limits the column; parsing narrows the type without a cast.
    mode: ZMode.parse(row.mode),
    setBy: row.set_by,
    insertedAt: row.inserted_at,
    updatedAt: row.updated_at,
  };
}
