import type { TQueryable } from "../queryable";

/** SPEC section 10 / the Overview: a node is live when its heartbeat is at most 30 s old. */
export const LIVE_WITHIN_SECONDS = 30;

export interface TOverrideRow {
  id: string;
  targetNode: string;
  actorId: string | null;
  mode: string;
  setBy: string | null;
  updatedAt: string;
}

export interface TNodeModes {
  identity: string;
  kind: string;
  /** Node-wide mode in force, as the node last reported it. */
  mode: string;
  /** Per-actor overrides in force, as the node last reported them. */
  overrides: Record<string, string>;
  stack: string | null;
  env: string | null;
  host: string | null;
  lastSeenAgoMs: number;
}

export interface TClusterModes {
  nodes: TNodeModes[];
  /** Every row of cyclium_mode_overrides: what operators asked for, applied within a second. */
  overrideRows: TOverrideRow[];
}

/**
 * Live nodes with the modes they report, and the stored overrides. Both are shown because they
 * can differ for a moment: a row is applied by its node within ~1 s (NOTIFY) and reported back
 * with the next heartbeat (~5 s).
 */
export async function listClusterModes(options: { db: TQueryable }): Promise<TClusterModes> {
  const [nodes, rows] = await Promise.all([
    options.db.query<{
      identity: string;
      kind: string;
      mode: string;
      overrides: Record<string, string> | null;
      stack: string | null;
      env: string | null;
      host: string | null;
      last_seen_ago_ms: number;
    }>(
      `SELECT identity, kind, mode, overrides, stack, env, host,
              greatest(0, extract(epoch FROM now() - last_seen_at) * 1000)::float8
                AS last_seen_ago_ms
         FROM cyclium_nodes
        WHERE last_seen_at >= now() - make_interval(secs => $1) AND stopped_at IS NULL
        ORDER BY kind DESC, identity`,
      [LIVE_WITHIN_SECONDS],
    ),
    options.db.query<{
      id: string;
      target_node: string;
      actor_id: string | null;
      mode: string;
      set_by: string | null;
      updated_at: Date;
    }>(
      `SELECT id::text, target_node, actor_id, mode, set_by, updated_at
         FROM cyclium_mode_overrides ORDER BY target_node, actor_id NULLS FIRST`,
    ),
  ]);
  return {
    nodes: nodes.rows.map((node) => ({
      identity: node.identity,
      kind: node.kind,
      mode: node.mode,
      overrides: node.overrides ?? {},
      stack: node.stack,
      env: node.env,
      host: node.host,
      lastSeenAgoMs: Math.round(node.last_seen_ago_ms),
    })),
    overrideRows: rows.rows.map((row) => ({
      id: row.id,
      targetNode: row.target_node,
      actorId: row.actor_id,
      mode: row.mode,
      setBy: row.set_by,
      updatedAt: row.updated_at.toISOString(),
    })),
  };
}
