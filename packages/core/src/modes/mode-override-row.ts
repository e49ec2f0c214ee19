import { ZMode, type ModeOverride } from "./mode";

/** Columns every override query returns, aliased to this shape. */
export const MODE_OVERRIDE_COLUMNS = `id::text AS id, target_node, actor_id, mode, set_by, inserted_at, updated_at`;

export interface ModeOverrideRow {
  id: string;
  target_node: string;
  actor_id: string | null;
  mode: string;
  set_by: string | null;
  inserted_at: Date;
  updated_at: Date;
}

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
