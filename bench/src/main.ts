/**
 * `pnpm bench --burst [--burst-size N]`: issue 18's memory bound instead (burst/run-burst.ts): a
 * burst of 100,000 events at one actor with maxConcurrentEpisodes 2 on one worker process; its
 * peak RSS, accept and drain times, and the exactly-once check. Never part of `--quick`.
 *
 * `pnpm bench --scale`: 1, 4, 8 and 16 real workers on one PostgreSQL instead (scale/): idle
 * connections, commits and CPU, LISTEN deliveries per fire, drain, a sweep of 1,000 orphans.
 *
 * `pnpm bench [--quick]`: our product, graphile-worker, pg-boss and DBOS side by side on one
 * PostgreSQL (DATABASE_URL, else this checkout's embedded server), each system in fresh databases
 * of its own: drain, idle latency, the UPDATE ceiling, commits and WAL per item. Prints a markdown
 * table and writes it with the JSON of every run to bench/results/. Started by launch.mjs on
 * Node >= 22.18 (graphile-worker 0.18 and pg-boss 12 need it), which every worker process shares.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { dataRoot, resolveDatabase } from "@cyclium/db";
import { historyMarkdown } from "./history/history-markdown";
import { runHistory } from "./history/run-history";
import { prepareBaseline } from "./baseline/baseline-system";
import { burstMarkdown } from "./burst/burst-markdown";
import { runBurst } from "./burst/run-burst";
import { parseConfig, type BenchConfig, type BurstConfig } from "./config";
import { readBenchEnv } from "./env";
import { enableCostProbes } from "./costs/cost-probes";
import { PostgresCpu } from "./pg/postgres-cpu";
import { preloadStatements } from "./pg/preload-statements";
import { Server } from "./pg/server";
import { toMarkdown } from "./report/markdown";
import { scaleCommand } from "./scale/scale-command";
import { summarize, type RunInfo, type Summary } from "./report/summary";
import { runCalibration } from "./scenarios/calibration";
import { templateName, type BenchContext } from "./scenarios/context";
import { runDrain } from "./scenarios/drain";
import { runLatency } from "./scenarios/latency";
import { cycliumLimitedSystem, cycliumSystem, cycliumTracedSystem } from "./systems/cyclium/system";
import { dbosSystem } from "./systems/dbos/system";
import { graphileWorkerSystem } from "./systems/graphile-worker/system";
import { pgBossSystem } from "./systems/pg-boss/system";
import { sqlFloorSystem } from "./systems/sql-floor/system";
import type { BenchSystem } from "./systems/system";

const ALL_SYSTEMS: readonly BenchSystem[] = [
  cycliumSystem,
  graphileWorkerSystem,
  pgBossSystem("defaults"),
  pgBossSystem("batched"),
  dbosSystem,
  sqlFloorSystem,
  cycliumTracedSystem,
  cycliumLimitedSystem,
];
const DATABASE_PREFIX = "cyclium_bench_";
const RESULTS_DIR = new URL("../results/", import.meta.url);

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Databases of earlier runs whose process is gone (a crash or Ctrl-C). */
async function dropLeftovers(server: Server): Promise<void> {
  for (const name of await server.databases(DATABASE_PREFIX)) {
    const pid = Number(/^cyclium_bench_(\d+)_/.exec(name)?.[1]);
    if (Number.isInteger(pid) && !isAlive(pid)) await server.dropDatabase(name);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function measure(context: BenchContext, systems: readonly BenchSystem[]) {
  const { config } = context;
  const runs: Summary["runs"] = { calibration: [], drain: [], latency: [] };
  // Repetitions outermost and systems interleaved inside: a change in the machine's load during
  // the run then shifts every system's figures alike instead of one system's.
  for (let rep = 1; rep <= config.repetitions; rep += 1) {
    for (const processes of config.processes) {
      for (const clients of [...new Set([1, config.concurrency])]) {
        const run = await runCalibration(context, processes, clients, rep);
        log(
          `calibration ${processes}×${clients} clients: ${Math.round(run.updatesPerSecond)} UPDATE/s`,
        );
        runs.calibration.push(run);
      }
      for (const system of systems) {
        const run = await runDrain(context, system, processes, rep);
        log(
          `drain ${system.id} ×${processes}: ${Math.round(run.itemsPerSecond)} items/s, ` +
            `${run.commitsPerItem.toFixed(2)} commits/item${run.problems.length > 0 ? `, PROBLEMS: ${run.problems.join("; ")}` : ""}`,
        );
        runs.drain.push(run);
      }
    }
    for (const system of systems.filter((s) => s.drainOnly !== true)) {
      const run = await runLatency(context, system, rep);
      const sorted = [...run.samples].sort((a, b) => a - b);
      log(`latency ${system.id}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms`);
      runs.latency.push(run);
    }
  }
  return runs;
}

/** `--burst`: the burst scenario alone; its table and JSON go to bench/results/burst-*. */
async function burst(
  context: BenchContext,
  config: BurstConfig,
  startedAt: string,
  loadBefore: number[],
  embedded: boolean,
): Promise<void> {
  const result = await runBurst({
    server: context.server,
    database: `${context.prefix}_burst`,
    config,
    log,
  });
  const command = `pnpm bench ${process.argv.slice(2).join(" ")}`.trim();
  const markdown = burstMarkdown(result, { command, node: process.version });
  const info = {
    command,
    startedAt,
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadBefore,
    loadAfter: os.loadavg(),
    database: embedded ? "embedded" : "DATABASE_URL",
    postgres: await context.server.settings(),
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  const base = `burst-${config.size}-${startedAt.replaceAll(":", "-").slice(0, 19)}`;
  await writeFile(new URL(`${base}.json`, RESULTS_DIR), JSON.stringify({ info, result }, null, 2));
  await writeFile(new URL(`${base}.md`, RESULTS_DIR), `${markdown}\n`);
  console.log(markdown);
  log(`results in bench/results/${base}.{md,json}`);
  if (result.problems.length > 0) {
    log(`${result.problems.length} exactly-once problem(s); see the report`);
    process.exitCode = 1;
  }
}

/** `--history N`: the history benchmark alone; its table and JSON go to bench/results/history-*. */
async function history(
  context: BenchContext,
  count: number,
  startedAt: string,
  loadBefore: number[],
): Promise<void> {
  const result = await runHistory(context, count, log);
  const command = `pnpm bench ${process.argv.slice(2).join(" ")}`.trim();
  const info = { command, node: process.version, loadBefore, loadAfter: os.loadavg() };
  const markdown = historyMarkdown(result, info);
  await mkdir(RESULTS_DIR, { recursive: true });
  const base = `history-${count}-${startedAt.replaceAll(":", "-").slice(0, 19)}`;
  await writeFile(new URL(`${base}.json`, RESULTS_DIR), JSON.stringify({ info, result }, null, 2));
  await writeFile(new URL(`${base}.md`, RESULTS_DIR), `${markdown}\n`);
  console.log(markdown);
  log(`results in bench/results/${base}.{md,json}`);
}

async function main(): Promise<void> {
  const config: BenchConfig = parseConfig(process.argv.slice(2));
  if (config.render !== undefined) {
    const summary = JSON.parse(await readFile(config.render, "utf8")) as Summary;
    console.log(toMarkdown(summary));
    return;
  }
  const env = readBenchEnv();
  const systems = ALL_SYSTEMS.filter((system) => config.systems.some((id) => id === system.id));
  if (config.baseline !== undefined) {
    // Right after today's cyclium, so that each repetition measures the two back to back.
    const ids = (["cyclium", "cyclium-limited"] as const).filter((id) =>
      systems.some((system) => system.id === id),
    );
    const baselines = await prepareBaseline(config.baseline, ids, log);
    for (const baseline of baselines) {
      const id = baseline.child?.system;
      const at = systems.findIndex((system) => system.id === id);
      systems.splice(at + 1, 0, baseline);
    }
  }
  // A cluster of the bench's own (durable, like a real server): WAL is counted cluster-wide, so
  // the dev cluster's other databases would add to it, and nobody else stops this one mid-run.
  const resolve = () =>
    resolveDatabase({
      databaseUrl: env.DATABASE_URL,
      // --history gets a cluster of its own: its run lasts long (a million rows seeded), and
      // another bench run finishing meanwhile stopped the shared one under it (2026-12-02).
      dataDir: path.join(dataRoot, config.history === undefined ? "pg-bench" : "pg-bench-history"),
      log,
    });
  let database = await resolve();
  if (database.embedded !== undefined) {
    const preload = await preloadStatements(database.url);
    if (preload === "restart" && database.embedded.startedHere) {
      log("restarting the bench's PostgreSQL with pg_stat_statements preloaded");
      await database.embedded.stop();
      database = await resolve();
    } else if (preload !== "loaded") {
      log(`pg_stat_statements not preloaded (${preload}): statements per item are round trips`);
    }
  }
  const server = await Server.connect(database.url, database.embedded !== undefined);
  const context: BenchContext = {
    server,
    config,
    prefix: `${DATABASE_PREFIX}${process.pid}`,
    postgresCpu: await PostgresCpu.find(await server.backendPid()),
    probes: null,
  };
  const ownCluster = database.embedded !== undefined;
  context.probes = await server.withAdmin((admin) => enableCostProbes(admin, ownCluster));
  context.probes.walRecordsFile = env.BENCH_WAL_RECORDS;
  for (const note of context.probes.notes) log(note);
  const startedAt = new Date().toISOString();
  const loadBefore = os.loadavg();
  try {
    await dropLeftovers(server);
    if (config.burst !== undefined) {
      await burst(context, config.burst, startedAt, loadBefore, database.embedded !== undefined);
      return;
    }
    if (config.history !== undefined) {
      await history(context, config.history, startedAt, loadBefore);
      return;
    }
    if (config.scale !== undefined) {
      await scaleCommand(context, config.scale, { startedAt, resultsDir: RESULTS_DIR, log });
      return;
    }
    for (const system of systems) {
      const template = templateName(context, system);
      await system.install(await server.createDatabase(template));
      await server.waitForNoBackends(template);
    }
    const runs = await measure(context, systems);
    const info: RunInfo = {
      command: `pnpm bench ${process.argv.slice(2).join(" ")}`.trim(),
      startedAt,
      finishedAt: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadBefore,
      loadAfter: os.loadavg(),
      database: env.DATABASE_URL ? "DATABASE_URL" : "embedded",
      postgres: await server.settings(),
    };
    const summary = summarize(info, config, systems, runs, context.probes.notes);
    const markdown = toMarkdown(summary);
    await mkdir(RESULTS_DIR, { recursive: true });
    const stamp = startedAt.replaceAll(":", "-").slice(0, 19);
    const base = `bench-${config.quick ? "quick-" : ""}${stamp}`;
    await writeFile(new URL(`${base}.json`, RESULTS_DIR), JSON.stringify(summary, null, 2));
    await writeFile(new URL(`${base}.md`, RESULTS_DIR), `${markdown}\n`);
    console.log(markdown);
    log(`results in bench/results/${base}.{md,json}`);
    if (summary.problems.length > 0) {
      log(`${summary.problems.length} exactly-once problem(s); see the report`);
      process.exitCode = 1;
    }
  } finally {
    for (const name of await server.databases(context.prefix)) await server.dropDatabase(name);
    const othersConnected = await server.otherClientsConnected();
    await server.close();
    // Left up when another bench run is using it: stopping it would fail that run mid-way.
    if (database.embedded?.startedHere && !othersConnected) await database.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
