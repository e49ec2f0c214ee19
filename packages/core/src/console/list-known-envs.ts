import type { Queryable } from "../db/index";

/**
 * Envs worth offering in the env selector: every env a node has ever registered in, plus every
 * env that has episodes (a loose index scan over cyclium_episodes_source_env_inserted_at_id_idx:
 * one index probe per env, not one row per episode). `null` is the unset env.
 */
export async function listKnownEnvs(options: { db: Queryable }): Promise<(string | null)[]> {
  const { rows } = await options.db.query<{ env: string | null }>(
    `WITH RECURSIVE e(env, n) AS (
       (SELECT source_env, 1 FROM cyclium_episodes
         WHERE source_env IS NOT NULL ORDER BY source_env LIMIT 1)
       UNION ALL
       SELECT (SELECT source_env FROM cyclium_episodes
                WHERE source_env > e.env ORDER BY source_env LIMIT 1), e.n + 1
         FROM e WHERE e.env IS NOT NULL AND e.n < 100
     )
     SELECT env FROM e WHERE env IS NOT NULL
     UNION SELECT env FROM cyclium_nodes WHERE env IS NOT NULL
     ORDER BY env`,
  );
  return [null, ...rows.map((row) => row.env)];
}
