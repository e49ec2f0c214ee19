import { performance } from "node:perf_hooks";
import { listEpisodes } from "../../../packages/core/src/console/episodes/index";
import { sweepOrphanedEpisodes } from "../../../packages/core/src/recovery/index";
import { seedStaleEpisodes } from "../../../packages/core/src/recovery/testing/index";
import { seedFinishedHistory } from "../../../packages/core/src/retention/testing/index";
import pg from "pg";
import { withClient } from "../pg/server";
import { runDrain, type DrainRun } from "../scenarios/drain";
import { runLatency } from "../scenarios/latency";
import { freshDatabase, templateName, type BenchContext } from "../scenarios/context";
import { median, percentile } from "../stats";
import { historyCycliumSystem as system } from "./history-system";

export interface HistoryPhase {
  /** Finished episodes in the database before measuring (0: the empty database). */
  history: number;
  drains: DrainRun[];
  latencyMs: number[];
  /** One sweep of 1,000 orphans, ms, per repetition. */
  sweepMs: number[];
  /** Default console episode list (first page of 50), ms per call. */
  listMs: number[];
  problems: string[];
}

export interface HistoryResult {
  seedSeconds: number;
  phases: HistoryPhase[];
}

const HISTORY_ACTOR = "history_actor";
/** Seeded per statement: one INSERT ... generate_series of 100,000 episodes and their rows. */
const SEED_CHUNK = 100_000;
const ORPHANS = 1_000;
const LIST_CALLS = 300;

/**
 * Issue 16's history benchmark: the same drain, latency, sweep and console-list measurements on
 * an empty database and on one holding `history` finished episodes (3 steps, a completed trigger
 * request and a `done` claim each, finished over the last 7 days, like a week at the default
 * retention). Each phase has its own template (the history one seeded once with generate_series,
 * then VACUUM ANALYZE as autovacuum would leave it); every measurement clones its template, so
 * the rows a measurement adds never reach the next one. Repetitions outermost, phases inside, so
 * a change of machine load hits both alike.
 */
export async function runHistory(
  context: BenchContext,
  history: number,
  log: (message: string) => void,
): Promise<HistoryResult> {
  const empty: BenchContext = { ...context, prefix: `${context.prefix}_empty` };
  const full: BenchContext = { ...context, prefix: `${context.prefix}_hist` };
  for (const ctx of [empty, full]) {
    await system.install(await context.server.createDatabase(templateName(ctx, system)));
  }
  const seedStarted = performance.now();
  await withClient(context.server.urlOf(templateName(full, system)), async (client) => {
    for (let seeded = 0; seeded < history; seeded += SEED_CHUNK) {
      const count = Math.min(SEED_CHUNK, history - seeded);
      const day = 86_400_000;
      // Chunk k finishes in its own slice of the week, older chunks first.
      const slice = (7 * day) / Math.ceil(history / SEED_CHUNK);
      const finishedAgoMs =
        60_000 + (Math.ceil(history / SEED_CHUNK) - 1 - seeded / SEED_CHUNK) * slice;
      await seedFinishedHistory(
        {
          count,
          actorId: HISTORY_ACTOR,
          finishedAgoMs,
          spreadMs: slice,
          stepsPerEpisode: 3,
          withRequest: true,
          withClaim: true,
        },
        client,
      );
      log(`history: ${seeded + count} of ${history} finished episodes seeded`);
    }
    await client.query("VACUUM ANALYZE");
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(`history seeded and vacuumed in ${seedSeconds.toFixed(0)} s`);
  for (const ctx of [empty, full]) {
    await context.server.waitForNoBackends(templateName(ctx, system), 60_000);
  }

  const phases: HistoryPhase[] = [0, history].map((n) => ({
    history: n,
    drains: [],
    latencyMs: [],
    sweepMs: [],
    listMs: [],
    problems: [],
  }));
  for (let rep = 1; rep <= context.config.repetitions; rep += 1) {
    for (const [index, ctx] of [empty, full].entries()) {
      const phase = phases[index]!;
      const label = `${phase.history.toLocaleString("en-US")} history`;
      const drain = await runDrain(ctx, system, 1, rep);
      phase.drains.push(drain);
      phase.problems.push(...drain.problems);
      log(`${label}: drain ${Math.round(drain.itemsPerSecond)} items/s`);
      const latency = await runLatency(ctx, system, rep);
      phase.latencyMs.push(...latency.samples);
      phase.problems.push(...latency.problems);
      log(`${label}: fire-to-start p50 ${median(latency.samples).toFixed(1)} ms`);
      const { sweepMs, listMs } = await sweepAndList(ctx, rep);
      phase.sweepMs.push(sweepMs);
      phase.listMs.push(...listMs);
      log(
        `${label}: sweep ${sweepMs.toFixed(0)} ms, list p95 ${percentile(listMs, 95).toFixed(2)} ms`,
      );
    }
  }
  return { seedSeconds, phases };
}

/** A sweep of 1,000 orphans (policy fail: no queue needed), then the console's first page. */
async function sweepAndList(
  context: BenchContext,
  rep: number,
): Promise<{ sweepMs: number; listMs: number[] }> {
  const database = await freshDatabase(context, system, `sweep_r${rep}`);
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on("error", () => undefined);
  try {
    await seedStaleEpisodes({ count: ORPHANS, actorId: "orphan_actor", withSteps: true }, pool);
    await pool.query("ANALYZE cyclium_episodes");
    const started = performance.now();
    const result = await sweepOrphanedEpisodes(
      { db: pool, node: "bench-sweeper", scope: { stack: null, env: null } },
      { resolvePolicy: () => "fail" },
    );
    const sweepMs = performance.now() - started;
    if (result.failed !== ORPHANS) {
      throw new Error(`sweep failed ${result.failed} of ${ORPHANS} orphans`);
    }
    const listMs: number[] = [];
    for (let call = 0; call < 10 + LIST_CALLS; call += 1) {
      const at = performance.now();
      await listEpisodes({ db: pool, filters: { env: null }, limit: 50 });
      if (call >= 10) listMs.push(performance.now() - at);
    }
    return { sweepMs, listMs };
  } finally {
    await pool.end();
    await context.server.dropDatabase(database.name);
  }
}
