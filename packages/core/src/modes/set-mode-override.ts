import type { Queryable } from "../db/index";
import { MODES_CHANNEL, ZMode, type Mode, type ModeOverride } from "./mode";
import { MODE_OVERRIDE_COLUMNS, toModeOverride, type ModeOverrideRow } from "./mode-override-row";

export interface SetModeOverrideOptions {
  /** A pool, or the caller's transaction (e.g. together with an audit log row). */
  db: Queryable;
  /** A node identity, or '*' for every node. */
  targetNode: string;
  /** Omit (or null) for the node-wide mode. */
  actorId?: string | null;
  mode: Mode;
  /** Who made the change, for the console (a user's email, `node:<identity>`, ...). */
  setBy?: string | null;
}

/**
 * Creates or replaces one override and notifies `cyclium_modes` in the same statement, so every
 * node that applies it re-reads a committed row (NOTIFY is delivered on commit).
 */
export async function setModeOverride(options: SetModeOverrideOptions): Promise<ModeOverride> {
  const { db, targetNode, actorId = null, setBy = null } = options;
  const mode = ZMode.parse(options.mode);
  if (targetNode.length === 0) throw new TypeError("targetNode must not be empty");
  const { rows } = await db.query<ModeOverrideRow>(
    `WITH saved AS (
       INSERT INTO cyclium_mode_overrides (target_node, actor_id, mode, set_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (target_node, actor_id)
       DO UPDATE SET mode = EXCLUDED.mode, set_by = EXCLUDED.set_by, updated_at = now()
       RETURNING *
     )
     SELECT ${MODE_OVERRIDE_COLUMNS}, pg_notify($5, target_node) AS notified
     FROM saved`,
    [targetNode, actorId, mode, setBy, MODES_CHANNEL],
  );
  const row = rows[0];
  if (row === undefined) throw new Error("upsert into cyclium_mode_overrides returned no row");
  return toModeOverride(row);
}
