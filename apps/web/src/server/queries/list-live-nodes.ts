import type { TQueryable } from "./queryable";

export interface TLiveNode {
  identity: string;
  kind: string;
  mode: string;
  stack: string | null;
  env: string | null;
  host: string | null;
  pid: number | null;
  version: string | null;
  status: string;
  startedAt: string;
  lastSeenAt: string;
  /** Measured by the database clock, so a browser with a skewed clock still reads it right. */
  lastSeenAgoMs: number;
  uptimeMs: number;
}

interface LiveNodeRow {
  identity: string;
  kind: string;
  mode: string;
  stack: string | null;
  env: string | null;
  host: string | null;
  pid: number | null;
  version: string | null;
  status: string;
  started_at: Date;
  last_seen_at: Date;
  last_seen_ago_ms: number;
  uptime_ms: number;
}

/**
 * Nodes whose heartbeat reached the database within `withinSeconds` and that have not recorded
 * a clean stop. Every env is listed: nodes of all envs share the cluster's database and
 * operators need to see all of them.
 */
export async function listLiveNodes(options: {
  db: TQueryable;
  withinSeconds: number;
}): Promise<TLiveNode[]> {
  const { rows } = await options.db.query<LiveNodeRow>(
    `SELECT identity, kind, mode, stack, env, host, pid, version, status,
            started_at, last_seen_at,
            greatest(0, extract(epoch FROM now() - last_seen_at) * 1000)::float8 AS last_seen_ago_ms,
            greatest(0, extract(epoch FROM now() - started_at) * 1000)::float8 AS uptime_ms
       FROM cyclium_nodes
      WHERE last_seen_at >= now() - make_interval(secs => $1)
        AND stopped_at IS NULL
      ORDER BY kind DESC, identity`,
    [options.withinSeconds],
  );
  return rows.map((row) => ({
    identity: row.identity,
    kind: row.kind,
    mode: row.mode,
    stack: row.stack,
    env: row.env,
    host: row.host,
    pid: row.pid,
    version: row.version,
    status: row.status,
    startedAt: row.started_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
    lastSeenAgoMs: Math.round(row.last_seen_ago_ms),
    uptimeMs: Math.round(row.uptime_ms),
  }));
}
