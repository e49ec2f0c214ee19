import type { Queryable } from "../../db/index";
import type { NodeRecord } from "../node";
import { NODE_COLUMNS, toNodeRecord } from "../node-row";

/** SPEC section 10 / the Overview: a node is live when its heartbeat is at most 30 s old. */
export const LIVE_NODE_WINDOW_SECONDS = 30;

export interface LiveNode extends NodeRecord {
  /** Measured by the database clock, so a browser with a skewed clock still reads it right. */
  lastSeenAgoMs: number;
  uptimeMs: number;
}

/**
 * Nodes whose heartbeat reached the database within `withinSeconds` and that have not recorded
 * a clean stop. Every env is listed: nodes of all envs share the cluster's database and
 * operators need to see all of them.
 */
export async function listLiveNodes(options: {
  db: Queryable;
  withinSeconds?: number;
}): Promise<LiveNode[]> {
  const { rows } = await options.db.query<{ last_seen_ago_ms: number; uptime_ms: number }>(
    `SELECT ${NODE_COLUMNS}, true AS live,
            greatest(0, extract(epoch FROM now() - last_seen_at) * 1000)::float8 AS last_seen_ago_ms,
            greatest(0, extract(epoch FROM now() - started_at) * 1000)::float8 AS uptime_ms
       FROM cyclium_nodes
      WHERE last_seen_at >= now() - make_interval(secs => $1)
        AND stopped_at IS NULL
      ORDER BY kind DESC, identity`,
    [options.withinSeconds ?? LIVE_NODE_WINDOW_SECONDS],
  );
  return rows.map((row) => ({
    ...toNodeRecord(row),
    lastSeenAgoMs: Math.round(row.last_seen_ago_ms),
    uptimeMs: Math.round(row.uptime_ms),
  }));
}
