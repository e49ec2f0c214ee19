/**
 * The Telemetry page's per-actor charts (issue 14 item 7) over the list bench's seeded episodes:
 * times readActorCharts (what telemetry.actorCharts calls) for each range and prints the plan
 * of its episode statement, to show it walks cyclium_episodes_env_actor_finished_at_idx over the
 * range only. Not a test: nothing is asserted.
 *
 *   pnpm --filter @cyclium/web bench:actor-charts      (BENCH_EPISODES, BENCH_RUNS)
 */
import { performance } from "node:perf_hooks";
import { createTestDatabase, prepareTestServer } from "@cyclium/db/testing";
import {
  ACTOR_CHART_RANGE_NAMES,
  type ActorChartRange,
  readActorCharts,
} from "@cyclium/core/console";
import type pg from "pg";
import { readBenchEnv } from "./env";
import { seedEpisodes } from "./seed-episodes";

// An actor of the seed (20 actors, 70 % of episodes in the unset env).
const ACTOR = "actor_07";

/** Runs one read and keeps the statement it sent to cyclium_episodes, for EXPLAIN. */
async function readCapturing(pool: pg.Pool, range: ActorChartRange) {
  let statement: { text: string; values: unknown[] } | undefined;
  const db = {
    query: (text: string, values?: unknown[]) => {
      if (text.includes("cyclium_episodes")) statement = { text, values: values ?? [] };
      return pool.query(text, values);
    },
  } as unknown as pg.Pool;
  const charts = await readActorCharts({ db, env: null, actorId: ACTOR, range });
  return { charts, statement };
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
    for (const range of ACTOR_CHART_RANGE_NAMES) {
      const timings: number[] = [];
      let finished = 0;
      for (let run = -2; run < env.BENCH_RUNS; run += 1) {
        const started = performance.now();
        const { charts } = await readCapturing(database.pool, range);
        if (run >= 0) timings.push(performance.now() - started);
        finished = charts.totals.completed + charts.totals.failed + charts.totals.cancelled;
      }
      timings.sort((a, b) => a - b);
      const at = (p: number) =>
        timings[Math.min(timings.length - 1, Math.ceil(p * timings.length) - 1)];
      console.log(
        `${range}: ${String(finished)} finished episodes of ${ACTOR}, p50 ${at(0.5)?.toFixed(1) ?? "?"} ms, p95 ${at(0.95)?.toFixed(1) ?? "?"} ms`,
      );
      const { statement } = await readCapturing(database.pool, range);
      if (!statement) continue;
      const { rows } = await database.pool.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
        statement.values,
      );
      console.log(rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n"));
    }
  } finally {
    await database.drop();
    if (server.embedded?.startedHere) await server.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
