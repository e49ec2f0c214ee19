import type { Queryable } from "../db/index";
import { MODES_CHANNEL } from "./mode";

export interface ClearNodeOverridesOptions {
  db: Queryable;
  /** One node identity, or '*' (the cluster-wide rows; nodes' own rows stay). */
  targetNode: string;
}

/**
 * `cleared` with what went: the target's mode overrides (node-wide and per actor) and its
 * concurrency limits; `nothing_to_clear` when it had none.
 */
export type ClearNodeOverridesResult =
  | { kind: "cleared"; modeOverrides: number; concurrencyOverrides: number }
  | { kind: "nothing_to_clear" };

/**
 * The console's "clear all overrides of a node": one statement deletes every row addressed to
 * exactly this target in both override tables (rows for '*' or other nodes stay) and notifies
 * `cyclium_modes` once, so the node goes back to its configured mode and its actors' defined
 * limits within a second.
 */
export async function clearNodeOverrides({
  db,
  targetNode,
}: ClearNodeOverridesOptions): Promise<ClearNodeOverridesResult> {
  const { rows } = await db.query<{ modes: number; limits: number }>(
    `WITH modes AS (
       DELETE FROM cyclium_mode_overrides WHERE target_node = $1 RETURNING id
     ), limits AS (
       DELETE FROM cyclium_concurrency_overrides WHERE target_node = $1 RETURNING id
     ), counted AS (
       SELECT (SELECT count(*) FROM modes)::int AS modes, (SELECT count(*) FROM limits)::int AS limits
     )
     SELECT modes, limits,
            CASE WHEN modes + limits > 0 THEN pg_notify($2, $1) END AS notified
       FROM counted`,
    [targetNode, MODES_CHANNEL],
  );
  const modeOverrides = rows[0]?.modes ?? 0;
  const concurrencyOverrides = rows[0]?.limits ?? 0;
  return modeOverrides + concurrencyOverrides === 0
    ? { kind: "nothing_to_clear" }
    : { kind: "cleared", modeOverrides, concurrencyOverrides };
}
