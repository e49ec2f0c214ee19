import type { Queryable } from "../../db/index";

export interface PendingRequestsByEnv {
  /** `source_env` of the requests; null is the unset env. */
  env: string | null;
  pending: number;
  /** Age of the oldest pending request, by the database clock. */
  oldestSeconds: number;
}

/**
 * Pending trigger requests per env, with the age of the oldest: one index range on
 * `(status, inserted_at)`, cheap enough for every scrape.
 */
export async function readPendingRequestsByEnv({
  db,
}: {
  db: Queryable;
}): Promise<PendingRequestsByEnv[]> {
  const { rows } = await db.query<{ env: string | null; pending: number; oldest_seconds: number }>(
    `SELECT source_env AS env, count(*)::int AS pending,
            EXTRACT(EPOCH FROM now() - min(inserted_at))::float8 AS oldest_seconds
       FROM cyclium_trigger_requests
      WHERE status = 'pending'
      GROUP BY source_env`,
  );
  return rows.map((row) => ({
    env: row.env,
    pending: row.pending,
    oldestSeconds: row.oldest_seconds,
  }));
}

export interface RunningNodeSighting {
  identity: string;
  kind: string;
  /** The node-wide mode it last recorded. */
  mode: string;
  env: string | null;
  /** Seconds since its last heartbeat, by the database clock. */
  lastSeenSeconds: number;
}

/**
 * Nodes that have not stopped cleanly and were seen within `withinSeconds`: the live ones, and
 * the ones that went silent (killed, partitioned, frozen) recently enough to be worth a page.
 */
export async function readRunningNodeSightings({
  db,
  withinSeconds,
}: {
  db: Queryable;
  withinSeconds: number;
}): Promise<RunningNodeSighting[]> {
  const { rows } = await db.query<{
    identity: string;
    kind: string;
    mode: string;
    env: string | null;
    last_seen_seconds: number;
  }>(
    `SELECT identity, kind, mode, env,
            EXTRACT(EPOCH FROM now() - last_seen_at)::float8 AS last_seen_seconds
       FROM cyclium_nodes
      WHERE status = 'running' AND last_seen_at > now() - make_interval(secs => $1::float8)`,
    [withinSeconds],
  );
  return rows.map((row) => ({
    identity: row.identity,
    kind: row.kind,
    mode: row.mode,
    env: row.env,
    lastSeenSeconds: row.last_seen_seconds,
  }));
}
