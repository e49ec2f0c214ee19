// Rows the tests need, written straight to the e2e database with unique ids so tests never
// depend on each other's data. They go away with the run's database.
import { randomUUID } from "node:crypto";
import type pg from "pg";

export type TEpisodeStatus = "pending" | "running" | "completed" | "failed" | "cancelled";

export async function insertEpisodes(
  db: pg.Pool,
  options: { status: TEpisodeStatus; count: number; env?: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     SELECT 'e2e_actor', $1, $2, 'manual', $3 FROM generate_series(1, $4)`,
    [`e2e_${randomUUID()}`, options.status, options.env ?? null, options.count],
  );
}

/** A node row as a heartbeat would leave it; `lastSeenSecondsAgo` ages it. */
export async function upsertNode(
  db: pg.Pool,
  options: { kind: "web" | "worker"; mode: string; lastSeenSecondsAgo?: number; env?: string },
): Promise<string> {
  const identity = `${options.kind}-e2e-${randomUUID().slice(0, 8)}`;
  await db.query(
    `INSERT INTO cyclium_nodes (identity, kind, mode, env, host, pid, version, started_at, last_seen_at)
     VALUES ($1, $2, $3, $4, 'e2e-host', 4242, '0.1.0',
             now() - interval '5 minutes', now() - make_interval(secs => $5))`,
    [identity, options.kind, options.mode, options.env ?? null, options.lastSeenSecondsAgo ?? 0],
  );
  return identity;
}
