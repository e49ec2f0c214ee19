/**
 * Runtime throughput and latency, one run on one database:
 *
 * - deferred-request throughput: 2,000 pending requests for four no-op actors are written in one
 *   statement and announced with one NOTIFY; 1, 2 and 4 worker processes (full mode, poller on)
 *   execute them; requests executed per second from the NOTIFY to the last completion;
 * - fire-to-start latency: a trigger_only writer defers one episode every 25 ms (the deferred
 *   runner, NOTIFY included) to one idle worker; `started_at - inserted_at` on the database
 *   clock, p50 and p99. The workers' poll interval is 60 s, so every pickup is a NOTIFY wake-up.
 *
 * Not a test: nothing is asserted. `pnpm --filter @cyclium/core bench:runtime`. Uses DATABASE_URL's
 * server when set, else this checkout's embedded PostgreSQL; works in a scratch database it
 * creates and drops.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { migrate, migrationsDir, resolveDatabase } from "@cyclium/db";
import { silentLogger, Telemetry } from "../src/telemetry/index";
import { DeferredRunner } from "../src/deferred/index";
import { readBenchEnv } from "./env";

// `--workers 1,2` and `--requests 500` narrow a run while iterating on the runtime.
const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
};
const WORKER_COUNTS = (argument("workers") ?? "1,2,4").split(",").map(Number);
const REQUESTS = Number(argument("requests") ?? 2_000);
const LATENCY_SAMPLES = 200;
const LATENCY_SPACING_MS = 25;
const ACTORS = ["bench_0", "bench_1", "bench_2", "bench_3"];

interface Worker {
  child: ChildProcess;
  exited: Promise<void>;
}

function startWorker(url: string, identity: string): Promise<Worker> {
  const config = JSON.stringify({ url, identity, pollIntervalMs: 60_000 });
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/runtime-bench-worker.ts", config],
    {
      cwd: new URL("..", import.meta.url).pathname,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve({ child, exited });
    });
    void exited.then(() => reject(new Error(`bench worker ${identity} exited early`)));
  });
}

async function stopWorkers(workers: Worker[]): Promise<void> {
  for (const worker of workers) worker.child.kill("SIGTERM");
  await Promise.all(workers.map((worker) => worker.exited));
}

async function reset(db: pg.Pool): Promise<void> {
  await db.query(
    "TRUNCATE cyclium_trigger_requests, cyclium_episode_steps, cyclium_episodes, cyclium_work_claims, cyclium_nodes, cyclium_bus_events CASCADE",
  );
}

/** Pending episodes and their requests in one statement, then one wake-up. */
async function writeRequests(db: pg.Pool, count: number): Promise<void> {
  await db.query(
    `WITH e AS (
       INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, source_node)
       SELECT ($2::text[])[1 + (g % array_length($2::text[], 1))], 'run', 'pending', 'manual', 'bench'
         FROM generate_series(1, $1) g
       RETURNING id, actor_id)
     INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, source_node, status)
     SELECT id, actor_id, 'run', 'bench', 'pending' FROM e`,
    [count, ACTORS],
  );
}

/** Transactions committed in this database so far (statistics lag by up to ~0.5 s, so sleep). */
async function commits(db: pg.Pool): Promise<number> {
  await sleep(1_000);
  const { rows } = await db.query<{ n: string }>(
    "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()",
  );
  return Number(rows[0]?.n);
}

async function waitCompleted(db: pg.Pool, count: number): Promise<void> {
  for (;;) {
    const { rows } = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM cyclium_trigger_requests WHERE status = 'completed'",
    );
    if (Number(rows[0]?.n) >= count) return;
    await sleep(20);
  }
}

async function throughput(db: pg.Pool, url: string, workers: number) {
  await reset(db);
  const running = await Promise.all(
    Array.from({ length: workers }, (_, i) => startWorker(url, `bench-w${i}`)),
  );
  try {
    await writeRequests(db, REQUESTS);
    const commitsBefore = await commits(db);
    const started = performance.now();
    await db.query("SELECT pg_notify('cyclium_trigger_requests', '{}')");
    await waitCompleted(db, REQUESTS);
    const seconds = (performance.now() - started) / 1000;
    // Includes this process's polling of the count (one commit per 20 ms) and idle node beats.
    const commitsPerRequest = ((await commits(db)) - commitsBefore) / REQUESTS;
    const spread = await db.query<{ claimed_by: string; n: string }>(
      "SELECT claimed_by, count(*) AS n FROM cyclium_trigger_requests GROUP BY claimed_by ORDER BY claimed_by",
    );
    return {
      workers,
      perSecond: REQUESTS / seconds,
      seconds,
      commitsPerRequest,
      spread: spread.rows.map((r) => Number(r.n)),
    };
  } finally {
    await stopWorkers(running);
  }
}

async function latency(db: pg.Pool, url: string) {
  await reset(db);
  const running = [await startWorker(url, "bench-latency")];
  const writer = new DeferredRunner({
    db,
    nodeIdentity: "bench-writer",
    stack: null,
    env: null,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  try {
    for (let i = 0; i < LATENCY_SAMPLES; i += 1) {
      const actorId = ACTORS[i % ACTORS.length] ?? "bench_0";
      await writer.defer({ actorId, expectationId: "run", triggerType: "manual", dedupeKey: null });
      await sleep(LATENCY_SPACING_MS);
    }
    await writer.flush();
    await waitCompleted(db, LATENCY_SAMPLES);
    const { rows } = await db.query<{ ms: number }>(
      "SELECT extract(epoch FROM started_at - inserted_at) * 1000 AS ms FROM cyclium_episodes ORDER BY 1",
    );
    const values = rows.map((r) => Number(r.ms));
    const at = (q: number) =>
      values[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)] ?? NaN;
    return { p50: at(0.5), p99: at(0.99), max: values[values.length - 1] ?? NaN };
  } finally {
    await stopWorkers(running);
  }
}

async function main() {
  const env = readBenchEnv();
  const database = await resolveDatabase({ databaseUrl: env.DATABASE_URL });
  const scratch = `cyclium_bench_runtime_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(scratch)}`);
  const url = new URL(database.url);
  url.pathname = `/${scratch}`;
  const db = new pg.Pool({ connectionString: url.toString(), max: 4 });
  // DROP DATABASE ... WITH (FORCE) at the end terminates whatever is still connected.
  db.on("error", () => undefined);
  try {
    await migrate({ url: url.toString(), migrationsDir });
    const version = await db.query<{ server_version: string }>("SHOW server_version");
    const results = [];
    for (const workers of WORKER_COUNTS)
      results.push(await throughput(db, url.toString(), workers));
    const lat = await latency(db, url.toString());
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
    console.log(
      `\nDeferred requests, no-op strategy — PostgreSQL ${version.rows[0]?.server_version ?? "?"}, ` +
        `${REQUESTS} requests per row, ${database.embedded ? "embedded server" : "DATABASE_URL"}\n`,
    );
    console.log(
      "| worker processes | requests/s | wall time | commits/request | requests per worker |",
    );
    console.log("|--:|--:|--:|--:|:--|");
    for (const r of results) {
      console.log(
        `| ${r.workers} | ${fmt(r.perSecond)} | ${r.seconds.toFixed(2)} s | ${r.commitsPerRequest.toFixed(1)} | ${r.spread.join(" / ")} |`,
      );
    }
    console.log(
      `\nFire-to-start latency (deferred runner -> NOTIFY -> poller -> running), ${LATENCY_SAMPLES} fires ` +
        `${LATENCY_SPACING_MS} ms apart, 1 idle worker: p50 ${lat.p50.toFixed(1)} ms, p99 ${lat.p99.toFixed(1)} ms, max ${lat.max.toFixed(1)} ms`,
    );
  } finally {
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(scratch)} WITH (FORCE)`);
    await admin.end();
    if (database.embedded?.startedHere) await database.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
