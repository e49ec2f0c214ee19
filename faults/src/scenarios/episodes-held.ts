import pg from "pg";
import type { WorkerSlot } from "../cluster/cluster";
import { waitUntil } from "./drain";
import type { ScenarioRun } from "./scenario";

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[]) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Running episodes per executing node, most first. */
export async function runningByNode(url: string): Promise<{ node: string; ids: string[] }[]> {
  const rows = await query<{ node: string; ids: string[] }>(
    url,
    `SELECT executed_by AS node, array_agg(id::text) AS ids FROM cyclium_episodes
      WHERE status = 'running' AND executed_by IS NOT NULL
      GROUP BY executed_by ORDER BY count(*) DESC`,
    [],
  );
  return rows;
}

/** How many of `ids` are still running on `node` (not yet taken over or orphaned). */
export async function stillHeldBy(
  url: string,
  node: string,
  ids: readonly string[],
): Promise<number> {
  const rows = await query<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM cyclium_episodes
      WHERE id = ANY($1::uuid[]) AND status = 'running' AND executed_by = $2`,
    [ids, node],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The longest silence among running episodes right now, on the database clock: time since the
 * newest journal entry or the start, as the recovery sweep measures staleness, but never counted
 * from before the server last started: the outage itself (and a WAL replay that takes seconds on
 * a loaded machine) is the fault, not a recovery that was late. 0 when none runs; null while the
 * database is unreachable.
 */
export async function longestSilenceMs(url: string): Promise<number | null> {
  try {
    const rows = await query<{ ms: number | null }>(
      url,
      `SELECT max(extract(epoch FROM now() - GREATEST(
                  COALESCE(GREATEST(j.last_step_at, e.started_at), e.updated_at),
                  pg_postmaster_start_time())) * 1000)::float8 AS ms
         FROM cyclium_episodes e
         LEFT JOIN LATERAL (SELECT max(s.inserted_at) AS last_step_at
                              FROM cyclium_episode_steps s WHERE s.episode_id = e.id) j ON true
        WHERE e.status = 'running'`,
      [],
    );
    return rows[0]?.ms ?? 0;
  } catch {
    return null;
  }
}

/** Waits until some worker runs at least `min` episodes and returns the busiest one. */
export async function busiestWorker(run: ScenarioRun, min: number): Promise<WorkerSlot> {
  let slot: WorkerSlot | undefined;
  await waitUntil(
    async () => {
      const busiest = (await runningByNode(run.databaseUrl).catch(() => []))[0];
      if (busiest && busiest.ids.length >= min) {
        slot = run.cluster.workers.find((w) => w.identity === busiest.node && w.child.ready);
      }
      return slot !== undefined;
    },
    120_000,
    200,
  );
  if (!slot) throw new Error(`no worker ran ${min} episodes at once within 2 minutes`);
  return slot;
}
