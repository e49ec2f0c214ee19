/**
 * `pnpm --filter @cyclium/bench idle [workers...]`: the idle cost of a worker (issue 28). Starts
 * N real demo workers (apps/worker's main.ts, the @cyclium/demo deployment) on one fresh
 * database, lets them settle, then counts from outside: backends by application_name and
 * pg_stat_database.xact_commit over a window, per worker; with pg_stat_statements (the bench's
 * embedded cluster preloads it) the statements the idle workers ran, most frequent first.
 * Prints a markdown table: backends and commits a second, in total and per worker.
 */
import path from "node:path";
import { dataRoot, migrate, migrationsDir, resolveDatabase } from "@cyclium/db";
import { readBenchEnv } from "../env";
import { preloadStatements } from "../pg/preload-statements";
import { Server } from "../pg/server";
import { spawnIdleWorker, type IdleWorker } from "./spawn-idle-worker";
import { sampleIdle, type IdleSample } from "./sample-idle";

function log(message: string): void {
  process.stderr.write(`[idle ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** `[workers...] [--window-ms N] [--settle-ms N]`; default 1 8 16 workers, 60 s after 30 s. */
function parseArgs(argv: readonly string[]) {
  const flag = (name: string, fallback: number): number => {
    const at = argv.indexOf(name);
    const value = at === -1 ? undefined : Number(argv[at + 1]);
    return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  const counts = argv
    .filter((arg, i) => /^\d+$/.test(arg) && !argv[i - 1]?.startsWith("--"))
    .map(Number);
  return {
    counts: counts.length > 0 ? counts : [1, 8, 16],
    windowMs: flag("--window-ms", 60_000),
    settleMs: flag("--settle-ms", 30_000),
  };
}

const { counts, windowMs, settleMs } = parseArgs(process.argv.slice(2));

async function openServer(): Promise<Server> {
  const env = readBenchEnv();
  const resolve = () =>
    resolveDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: path.join(dataRoot, "pg-bench"),
      log,
    });
  let database = await resolve();
  if (database.embedded !== undefined) {
    const preload = await preloadStatements(database.url);
    if (preload === "restart" && database.embedded.startedHere) {
      log("restarting the bench's PostgreSQL with pg_stat_statements preloaded");
      await database.embedded.stop();
      database = await resolve();
    }
  }
  return Server.connect(database.url);
}

async function measure(server: Server, workers: number): Promise<IdleSample> {
  const name = `cyclium_idle_${process.pid}_${workers}`;
  const url = await server.createDatabase(name);
  await migrate({ url, migrationsDir, log: () => undefined });
  const started: IdleWorker[] = [];
  try {
    for (let i = 0; i < workers; i += 1) {
      started.push(spawnIdleWorker({ identity: `idle-${i + 1}`, databaseUrl: url }));
    }
    await Promise.all(started.map((worker) => worker.ready));
    log(`${workers} worker(s) ready; settling ${settleMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return await sampleIdle({ server, database: name, workers, windowMs });
  } finally {
    await Promise.all(started.map((worker) => worker.stop()));
    await server.dropDatabase(name);
  }
}

const server = await openServer();
const results: IdleSample[] = [];
for (const workers of counts) {
  const sample = await measure(server, workers);
  results.push(sample);
  log(`${workers} worker(s): ${sample.backends} backends, ${sample.commitsPerSecond.toFixed(1)}/s`);
  if (sample.statements.length > 0) {
    console.log(`\nStatements of ${workers} idle worker(s) over ${windowMs / 1000} s:`);
    for (const row of sample.statements)
      console.log(`${String(row.calls).padStart(6)}  ${row.query}`);
  }
}
console.log(`\n| workers | backends (median / max) | per worker | commits/s | per worker |`);
console.log(`|--:|--:|--:|--:|--:|`);
for (const r of results) {
  console.log(
    `| ${r.workers} | ${r.backends} / ${r.maxBackends} | ${(r.backends / r.workers).toFixed(2)} | ${r.commitsPerSecond.toFixed(1)} | ${(r.commitsPerSecond / r.workers).toFixed(2)} |`,
  );
}
console.log(
  `\nBackends by application_name (last run): ${JSON.stringify(results.at(-1)?.byApplication)}`,
);
process.exit(0);
