/**
 * The console's episode list with 1,000,000 episodes (issue 6: "well under half a second"):
 * bulk-inserts episodes with generate_series into a database of its own (cloned from the
 * migrated template, so it measures the indexes the migrations create), then runs the list query
 * of apps/web for each filter combination and prints p50/p95/max. Not a test: nothing is asserted.
 *
 *   pnpm --filter @cyclium/web bench:episodes      (BENCH_EPISODES, BENCH_RUNS, BENCH_EXPLAIN)
 */
import { performance } from "node:perf_hooks";
import { createTestDatabase, prepareTestServer } from "@cyclium/db/testing";
import { SqlParams, countEpisodes, episodeFilterSql, listEpisodes } from "@cyclium/core/console";
import type pg from "pg";
import {
  BENCH_COMBINATIONS,
  BENCH_COUNTS,
  type TBenchCombination,
} from "./episodes-bench-combinations";
import { readBenchEnv } from "./env";
import { seedEpisodes } from "./seed-episodes";

const PAGE_SIZE = 50;

interface TResult {
  name: string;
  rows: number;
  p50: number;
  p95: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

async function measure(
  pool: pg.Pool,
  combination: TBenchCombination,
  runs: number,
  what: "list" | "count" = "list",
): Promise<TResult> {
  // A deep page: walk `pages` pages first and time the last one.
  let cursor: string | undefined;
  for (let page = 0; page < (combination.deepPages ?? 0); page += 1) {
    const result = await listEpisodes({
      db: pool,
      filters: combination.filters,
      cursor,
      limit: PAGE_SIZE,
    });
    cursor = result.page.olderCursor ?? undefined;
  }
  const timings: number[] = [];
  let rows = 0;
  // Two warm-up runs: the first touches cold pages, which the console's polling never sees twice.
  for (let run = -2; run < runs; run += 1) {
    const started = performance.now();
    if (what === "count") {
      rows = (await countEpisodes({ db: pool, filters: combination.filters })).count;
    } else {
      const result = await listEpisodes({
        db: pool,
        filters: combination.filters,
        cursor,
        limit: PAGE_SIZE,
      });
      rows = result.items.length;
    }
    const elapsed = performance.now() - started;
    if (run >= 0) timings.push(elapsed);
  }
  timings.sort((a, b) => a - b);
  return {
    name: combination.name,
    rows,
    p50: percentile(timings, 50),
    p95: percentile(timings, 95),
    max: timings[timings.length - 1] ?? Number.NaN,
  };
}

async function explain(pool: pg.Pool, combination: TBenchCombination): Promise<string> {
  const params = new SqlParams();
  const where = episodeFilterSql(combination.filters, params);
  const { rows } = await pool.query<{ "QUERY PLAN": string }>(
    `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
     SELECT id FROM cyclium_episodes WHERE ${where}
      ORDER BY source_env, inserted_at DESC, id DESC LIMIT ${PAGE_SIZE + 1}`,
    params.values,
  );
  return rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n");
}

function formatTable(results: TResult[]): string {
  const header = ["filter combination", "rows", "p50 ms", "p95 ms", "max ms"];
  const lines = results.map((r) => [
    r.name,
    String(r.rows),
    r.p50.toFixed(2),
    r.p95.toFixed(2),
    r.max.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]?.length ?? 0)));
  const row = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ");
  return [row(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(row)].join("\n");
}

async function main(): Promise<void> {
  const env = readBenchEnv();
  const server = await prepareTestServer(env.DATABASE_URL);
  const database = await createTestDatabase({
    prefix: "cyclium_bench",
    serverUrl: server.serverUrl,
    templateDatabase: server.templateDatabase,
    poolSize: 2,
  });
  try {
    const seedStarted = performance.now();
    await seedEpisodes(database.pool, env.BENCH_EPISODES);
    const seconds = ((performance.now() - seedStarted) / 1000).toFixed(1);
    console.log(`seeded ${env.BENCH_EPISODES.toLocaleString("en-US")} episodes in ${seconds} s`);

    const results: TResult[] = [];
    for (const combination of BENCH_COMBINATIONS) {
      results.push(await measure(database.pool, combination, env.BENCH_RUNS));
      if (env.BENCH_EXPLAIN) {
        console.log(`${combination.name}\n${await explain(database.pool, combination)}`);
      }
    }
    console.log(`\nlist query, page of ${PAGE_SIZE}, ${env.BENCH_RUNS} runs each:\n`);
    console.log(formatTable(results));
    const counts: TResult[] = [];
    for (const combination of BENCH_COUNTS) {
      counts.push(await measure(database.pool, combination, env.BENCH_RUNS, "count"));
    }
    console.log(`\ncountEpisodes (rows = the count), ${env.BENCH_RUNS} runs each:\n`);
    console.log(formatTable(counts));
  } finally {
    await database.drop();
    if (server.embedded?.startedHere) await server.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
