import type { Queryable } from "../db/index";
import {
  CONCURRENCY_OVERRIDE_COLUMNS,
  toConcurrencyOverride,
  ZMaxConcurrentEpisodes,
  type ConcurrencyOverride,
  type ConcurrencyOverrideRow,
} from "./concurrency-override";
import { MODES_CHANNEL } from "./mode";

export interface SetConcurrencyOverrideOptions {
  /** A pool, or the caller's transaction (e.g. together with an audit log row). */
  db: Queryable;
  /** A node identity, or '*' for every node. */
  targetNode: string;
  actorId: string;
  maxConcurrentEpisodes: number;
  /** Who made the change (a user's name, `node:<identity>`, ...). */
  setBy?: string | null;
}

/**
 * Creates or replaces one actor's limit on a node and notifies `cyclium_modes` in the same
 * statement, as a mode override does: the node's ModeSync re-reads its rows on commit and its
 * actor host starts queued work at once when the limit grew.
 */
export async function setConcurrencyOverride(
  options: SetConcurrencyOverrideOptions,
): Promise<ConcurrencyOverride> {
  const { db, targetNode, actorId, setBy = null } = options;
  const limit = ZMaxConcurrentEpisodes.parse(options.maxConcurrentEpisodes);
  if (targetNode.length === 0) throw new TypeError("targetNode must not be empty");
  if (actorId.length === 0) throw new TypeError("actorId must not be empty");
  const { rows } = await db.query<ConcurrencyOverrideRow>(
    `WITH saved AS (
       INSERT INTO cyclium_concurrency_overrides
              (target_node, actor_id, max_concurrent_episodes, set_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (target_node, actor_id)
       DO UPDATE SET max_concurrent_episodes = EXCLUDED.max_concurrent_episodes,
                     set_by = EXCLUDED.set_by, updated_at = now()
       RETURNING *
     )
     SELECT ${CONCURRENCY_OVERRIDE_COLUMNS}, pg_notify($5, target_node) AS notified
     FROM saved`,
    [targetNode, actorId, limit, setBy, MODES_CHANNEL],
  );
  const row = rows[0];
  if (row === undefined)
    throw new Error("upsert into cyclium_concurrency_overrides returned no row");
  return toConcurrencyOverride(row);
}
