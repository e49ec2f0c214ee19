import type pg from "pg";

/**
 * `count` episodes spread over the last 30 days, with the skew a real cluster has: most episodes
 * in the unset env and completed, a few failed, rare cancellations; 20 actors with 3 expectations
 * each; five trigger types; three stacks; an input with a unique order number and one of four
 * regions (for the search's input.<path>: terms). Inserted in chunks of 200,000 by generate_series with
 * the indexes in place (what a production table looks like), then ANALYZEd.
 */
export async function seedEpisodes(pool: pg.Pool, count: number): Promise<void> {
  const chunk = 200_000;
  for (let start = 1; start <= count; start += chunk) {
    const end = Math.min(count, start + chunk - 1);
    await pool.query(
      `INSERT INTO cyclium_episodes
         (actor_id, expectation_id, status, trigger_type, source_env, source_stack, attempt,
          inserted_at, started_at, finished_at, archived_at, dedupe_key, input)
       SELECT 'actor_' || lpad((i % 20)::text, 2, '0'),
              'expectation_' || ((i / 20) % 3),
              CASE WHEN r < 0.85 THEN 'completed' WHEN r < 0.92 THEN 'failed'
                   WHEN r < 0.94 THEN 'cancelled' WHEN r < 0.97 THEN 'running' ELSE 'pending' END,
              CASE WHEN (i / 13) % 20 < 10 THEN 'event' WHEN (i / 13) % 20 < 15 THEN 'schedule'
                   WHEN (i / 13) % 20 < 17 THEN 'poll' WHEN (i / 13) % 20 < 19 THEN 'manual'
                   ELSE 'workflow' END,
              CASE WHEN (i / 3) % 10 < 7 THEN NULL WHEN (i / 3) % 10 < 9 THEN 'staging' ELSE 'rc' END,
              CASE WHEN (i / 11) % 5 < 2 THEN NULL WHEN (i / 11) % 5 < 4 THEN 'blue' ELSE 'green' END,
              1 + (i % 7 = 0)::int,
              at, at + interval '1 second', at + interval '4 seconds',
              CASE WHEN i % 100 = 0 THEN at + interval '1 day' END,
              'bench:' || i,
              jsonb_build_object('order', 'O-' || i,
                                 'region', (ARRAY['eu', 'us', 'apac', 'latam'])[1 + i % 4])
         FROM (SELECT i, random() AS r,
                      now() - make_interval(secs => ($2::int - i) * (2592000.0 / $2::int)) AS at
                 FROM generate_series($1::int, $3::int) AS i) AS g`,
      [start, count, end],
    );
  }
  // An actor that only ever ran in another env: the planner's independence assumption expects
  // it in every env, which is what sent the first version of the list query on full scans.
  await pool.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_env)
     SELECT 'staging_only_actor', 'expectation_0', 'completed', 'event', 'staging'
       FROM generate_series(1, 20000)`,
  );
  await pool.query("ANALYZE cyclium_episodes");
}
