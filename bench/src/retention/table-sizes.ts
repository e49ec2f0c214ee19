import type pg from "pg";

export interface SizeSample {
  /** Every cyclium_ table with its indexes and TOAST, bytes. */
  totalBytes: number;
  episodes: number;
  steps: number;
  claims: number;
  requests: number;
}

/** One point of the size curve: pg_total_relation_size of every cyclium_ table, and live rows. */
export async function sampleTableSizes(db: pg.Pool | pg.Client): Promise<SizeSample> {
  const { rows } = await db.query<{
    total: string;
    episodes: number;
    steps: number;
    claims: number;
    requests: number;
  }>(
    `SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
              WHERE c.relkind = 'r' AND c.relname LIKE 'cyclium\\_%')::text AS total,
            (SELECT count(*) FROM cyclium_episodes)::int AS episodes,
            (SELECT count(*) FROM cyclium_episode_steps)::int AS steps,
            (SELECT count(*) FROM cyclium_work_claims)::int AS claims,
            (SELECT count(*) FROM cyclium_trigger_requests)::int AS requests`,
  );
  const row = rows[0]!;
  return {
    totalBytes: Number(row.total),
    episodes: row.episodes,
    steps: row.steps,
    claims: row.claims,
    requests: row.requests,
  };
}
