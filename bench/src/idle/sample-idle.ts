import type { Server } from "../pg/server";

export interface IdleSample {
  workers: number;
  /** Client backends connected to the database: the median of one sample a second. */
  backends: number;
  /** The most seen in one sample (a pooled connection opened when two statements met). */
  maxBackends: number;
  byApplication: Record<string, number>;
  commitsPerSecond: number;
  /** Statements run in the window (pg_stat_statements, when loaded), most frequent first. */
  statements: { calls: number; query: string }[];
}

/**
 * Counts from the `postgres` database, so the reading adds nothing to the counted one: backends
 * by application_name, and xact_commit (which counts read-only autocommit statements too) over
 * `windowMs`.
 */
export async function sampleIdle(options: {
  server: Server;
  database: string;
  workers: number;
  windowMs: number;
}): Promise<IdleSample> {
  const { server, database, workers, windowMs } = options;
  const statementsLoaded = await server.withAdmin(async (admin) => {
    try {
      await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await admin.query("SELECT pg_stat_statements_reset()");
      return true;
    } catch {
      return false;
    }
  });
  const before = await server.counters(database);
  const startedAt = Date.now();
  const counts: number[] = [];
  while (Date.now() - startedAt < windowMs) {
    counts.push(await countBackends(server, database));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const after = await server.counters(database);
  const seconds = (Date.now() - startedAt) / 1000;
  return server.withAdmin(async (admin) => {
    const { rows } = await admin.query<{ app: string; n: number }>(
      `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND backend_type = 'client backend' GROUP BY 1 ORDER BY 1`,
      [database],
    );
    const byApplication = Object.fromEntries(rows.map((row) => [row.app, row.n]));
    const statements = statementsLoaded
      ? (
          await admin.query<{ calls: string; query: string }>(
            `SELECT s.calls::text AS calls, regexp_replace(s.query, '\\s+', ' ', 'g') AS query
               FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
              WHERE d.datname = $1 ORDER BY s.calls DESC LIMIT 25`,
            [database],
          )
        ).rows.map((row) => ({ calls: Number(row.calls), query: row.query.slice(0, 160) }))
      : [];
    return {
      workers,
      backends: [...counts].sort((a, b) => a - b)[Math.floor(counts.length / 2)] ?? 0,
      maxBackends: Math.max(...counts),
      byApplication,
      commitsPerSecond: (after.commits - before.commits) / seconds,
      statements,
    };
  });
}

async function countBackends(server: Server, database: string): Promise<number> {
  return server.withAdmin(async (admin) => {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND backend_type = 'client backend'`,
      [database],
    );
    return rows[0]?.n ?? 0;
  });
}
