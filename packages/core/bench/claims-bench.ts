/**
 * Work-claim throughput: acquire / renew / complete operations per second with 1, 4 and 16
 * concurrent clients (one connection each), next to a baseline single-row UPDATE loop on the
 * same table in the same run, so the numbers can be read relative to what the server does for
 * the simplest write. Not a test: nothing is asserted. Run with
 *
 *   pnpm --filter @cyclium/core bench:claims        (BENCH_SECONDS=2 per phase by default)
 *
 * It uses DATABASE_URL when set, else this checkout's embedded PostgreSQL (started if needed,
 * stopped again if it was started here), migrates it, and deletes its own rows at the end.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrate, migrationsDir, resolveDatabase } from "@cyclium/db";
import { PostgresWorkClaims } from "../src/claims/index";
import { Telemetry } from "../src/telemetry/index";
import { readBenchEnv } from "./env";

const CONCURRENCY = [1, 4, 16] as const;
const LEASE_SECONDS = 120;

interface Worker {
  owner: string;
  client: pg.Client;
  claims: PostgresWorkClaims;
  /** Keys this worker acquired in the acquire phase (renewed and completed later). */
  keys: string[];
}

/** Runs `op` on every worker in a loop for `seconds`; returns operations per second. */
async function timed(
  workers: Worker[],
  seconds: number,
  op: (worker: Worker, index: number, n: number) => Promise<unknown>,
): Promise<number> {
  const started = performance.now();
  const until = started + seconds * 1000;
  const counts = await Promise.all(
    workers.map(async (worker, index) => {
      let n = 0;
      while (performance.now() < until) {
        await op(worker, index, n);
        n += 1;
      }
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

/** Runs every worker through its own list once; returns operations per second. */
async function drain(workers: Worker[], op: (worker: Worker, key: string) => Promise<unknown>) {
  const started = performance.now();
  const counts = await Promise.all(
    workers.map(async (worker) => {
      for (const key of worker.keys) await op(worker, key);
      return worker.keys.length;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

async function benchConcurrency(url: string, run: string, clients: number, seconds: number) {
  // No subscribers: emit returns at once, as on a node that exports no metrics.
  const telemetry = new Telemetry();
  const workers: Worker[] = [];
  for (let i = 0; i < clients; i += 1) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    workers.push({
      owner: `w${i}`,
      client,
      claims: new PostgresWorkClaims({ db: client, telemetry }),
      keys: [],
    });
  }
  const prefix = `bench:${run}:c${clients}`;
  try {
    const acquire = await timed(workers, seconds, async (worker, i, n) => {
      const key = `${prefix}:w${i}:${n}`;
      const result = await worker.claims.acquire({
        dedupeKey: key,
        owner: worker.owner,
        leaseSeconds: LEASE_SECONDS,
      });
      if (!result.ok) throw new Error(`fresh key ${key} was busy`);
      worker.keys.push(key);
    });
    const renew = await timed(workers, seconds, async (worker, _i, n) => {
      const key = worker.keys[n % worker.keys.length] ?? "";
      const result = await worker.claims.renew({
        dedupeKey: key,
        owner: worker.owner,
        leaseSeconds: LEASE_SECONDS,
        attempt: 1,
      });
      if (!result.ok) throw new Error(`renew of ${key} refused`);
    });
    const complete = await drain(workers, async (worker, key) => {
      const result = await worker.claims.complete({
        dedupeKey: key,
        owner: worker.owner,
        attempt: 1,
      });
      if (!result.ok) throw new Error(`complete of ${key} refused`);
    });

    // Every worker asks for one key that someone else holds: the path N-1 nodes take per event.
    const held = `${prefix}:held`;
    await workers[0]?.claims.acquire({
      dedupeKey: held,
      owner: "holder",
      leaseSeconds: LEASE_SECONDS,
    });
    const busy = await timed(workers, seconds, async (worker) => {
      const result = await worker.claims.acquire({
        dedupeKey: held,
        owner: worker.owner,
        leaseSeconds: LEASE_SECONDS,
      });
      if (result.ok) throw new Error("held key was acquired");
    });

    // Baseline: one UPDATE of one row per statement, each worker on its own row of the same
    // table (same indexes touched: updated_at is indexed, as renew's is).
    for (const [i, worker] of workers.entries()) {
      await worker.claims.acquire({
        dedupeKey: `${prefix}:base:w${i}`,
        owner: worker.owner,
        leaseSeconds: LEASE_SECONDS,
      });
    }
    const baseline = await timed(workers, seconds, (worker, i) =>
      worker.client.query(
        "UPDATE cyclium_work_claims SET updated_at = now() WHERE dedupe_key = $1",
        [`${prefix}:base:w${i}`],
      ),
    );
    return {
      clients,
      acquire,
      busy,
      renew,
      complete,
      baseline,
      keys: workers.reduce((n, w) => n + w.keys.length, 0),
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.client.end()));
  }
}

async function main() {
  const env = readBenchEnv();
  const database = await resolveDatabase({ databaseUrl: env.DATABASE_URL });
  await migrate({ url: database.url, migrationsDir });
  const run = randomBytes(4).toString("hex");
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const version = await admin.query<{ server_version: string }>("SHOW server_version");
    const sync = await admin.query<{ synchronous_commit: string }>("SHOW synchronous_commit");
    const results = [];
    for (const clients of CONCURRENCY) {
      results.push(await benchConcurrency(database.url, run, clients, env.BENCH_SECONDS));
    }
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
    console.log(
      `\nWork claims, ops/s — PostgreSQL ${version.rows[0]?.server_version ?? "?"}, ` +
        `synchronous_commit=${sync.rows[0]?.synchronous_commit ?? "?"}, ` +
        `${env.BENCH_SECONDS}s per phase, ${database.embedded ? "embedded server" : "DATABASE_URL"}\n`,
    );
    console.log(
      "| clients | acquire (new key) | acquire (busy) | renew | complete | baseline UPDATE |",
    );
    console.log("|--:|--:|--:|--:|--:|--:|");
    for (const r of results) {
      console.log(
        `| ${r.clients} | ${fmt(r.acquire)} | ${fmt(r.busy)} | ${fmt(r.renew)} | ${fmt(r.complete)} | ${fmt(r.baseline)} |`,
      );
    }
    console.log(
      "\nacquire = INSERT of a fresh claim; busy = acquire of a key held elsewhere; complete = every key acquired above;" +
        "\nbaseline = `UPDATE cyclium_work_claims SET updated_at = now() WHERE dedupe_key = $1`, one row per client.",
    );
  } finally {
    await admin.query("DELETE FROM cyclium_work_claims WHERE dedupe_key LIKE $1", [
      `bench:${run}:%`,
    ]);
    await admin.end();
    if (database.embedded?.startedHere) await database.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
