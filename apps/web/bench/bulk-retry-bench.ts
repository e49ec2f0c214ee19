/**
 * A bulk retry over a search at scale (issue 14 item 2: "100,000 matching episodes do not time
 * out"): inserts BENCH_EPISODES failed episodes into a database of its own and
 * times core's runBulkEpisodeCommand, the function episodes.bulkRetry calls, printing the batches
 * and the slowest one. Not a test: nothing is asserted.
 *
 *   cd apps/web && BENCH_EPISODES=100000 npx tsx bench/bulk-retry-bench.ts
 */
import { performance } from "node:perf_hooks";
import { runBulkEpisodeCommand } from "@cyclium/core/console";
import { createTestDatabase, prepareTestServer } from "@cyclium/db/testing";
import { readBenchEnv } from "./env";

async function main(): Promise<void> {
  const env = readBenchEnv();
  const count = env.BENCH_EPISODES;
  const server = await prepareTestServer(env.DATABASE_URL);
  const database = await createTestDatabase({
    prefix: "cyclium_bench_bulk",
    serverUrl: server.serverUrl,
    templateDatabase: server.templateDatabase,
    poolSize: 2,
  });
  try {
    await database.pool.query(
      `INSERT INTO cyclium_episodes
         (actor_id, expectation_id, status, trigger_type, source_env, inserted_at, error_class)
       SELECT 'bulk_actor', 'check', 'failed', 'event', 'bulk',
              now() - make_interval(secs => i), 'boom'
         FROM generate_series(1, $1::int) AS i`,
      [count],
    );
    await database.pool.query("ANALYZE cyclium_episodes");
    let last = performance.now();
    let slowest = 0;
    const started = last;
    const outcome = await runBulkEpisodeCommand(
      {
        command: { kind: "retry", by: "bench", sourceNode: "bench" },
        filters: { env: "bulk" },
        onBatch: () => {
          const now = performance.now();
          slowest = Math.max(slowest, now - last);
          last = now;
        },
      },
      database.pool,
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `bulk retry of ${count.toLocaleString("en-US")} failed episodes: ${seconds.toFixed(1)} s, ` +
        `${outcome.batches} batches, slowest batch ${slowest.toFixed(0)} ms`,
    );
    console.log(JSON.stringify(outcome));
  } finally {
    await database.drop();
    if (server.embedded?.startedHere) await server.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
