/**
 * Recovery sweep throughput: wall time until 10,000 stale episodes are recovered, by 1 and by 4
 * sweeping nodes at once (each with a pool of its own, as separate processes would have), with
 * the work-claim gate (`CYCLIUM_WORK_CLAIMS=postgres`, the worker default) and without it. Every
 * episode must be recovered exactly once; the run fails loudly if not. Not a test. Run with
 *
 *   pnpm --filter @cyclium/core bench:recovery [episodes]      (10000 by default)
 *
 * It uses the server of DATABASE_URL when set, else this checkout's embedded PostgreSQL, in a
 * scratch database of its own that it drops at the end.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrate, migrationsDir, resolveDatabase } from "@cyclium/db";
import { PostgresWorkClaims } from "../src/claims/index";
import { sweepOrphanedEpisodes, type SweepResult } from "../src/recovery/index";
import { seedStaleEpisodes } from "../src/recovery/testing/index";
import { Telemetry } from "../src/telemetry/index";
import { readBenchEnv } from "./env";

const NODES = [1, 4] as const;
const GATES = ["recovery claim only", "work claims"] as const;

interface Row {
  gate: (typeof GATES)[number];
  nodes: number;
  ms: number;
  perNode: number[];
}

async function runCase(url: string, count: number, gate: Row["gate"], nodes: number): Promise<Row> {
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  await admin.query(
    "TRUNCATE cyclium_episodes, cyclium_episode_steps, cyclium_work_claims CASCADE",
  );
  await seedStaleEpisodes({ count, dedupePrefix: null, withSteps: true }, admin);
  await admin.query("VACUUM ANALYZE cyclium_episodes, cyclium_episode_steps");
  const pools = Array.from({ length: nodes }, () => new pg.Pool({ connectionString: url, max: 5 }));
  // Open the connections first: the timing is of the sweep, not of connection set-up.
  await Promise.all(
    pools.map((pool) => Promise.all([pool.query("SELECT 1"), pool.query("SELECT 1")])),
  );
  const telemetry = new Telemetry();
  const started = performance.now();
  let results: SweepResult[];
  try {
    results = await Promise.all(
      pools.map((pool, i) =>
        sweepOrphanedEpisodes(
          {
            db: pool,
            node: `bench-${i}`,
            scope: { stack: null, env: null },
            telemetry,
            ...(gate === "work claims"
              ? { claims: new PostgresWorkClaims({ db: pool, telemetry }) }
              : {}),
          },
          { resolvePolicy: () => "restart", limit: count },
        ),
      ),
    );
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
  const ms = performance.now() - started;
  const { rows } = await admin.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM cyclium_episodes WHERE status = 'pending' AND jsonb_array_length(recovery_history) = 1",
  );
  await admin.end();
  const claimed = results.reduce((sum, result) => sum + result.claimed, 0);
  if (claimed !== count || rows[0]?.n !== count) {
    throw new Error(
      `expected ${count} recovered exactly once, got ${claimed} claims, ${rows[0]?.n} rows`,
    );
  }
  return { gate, nodes, ms, perNode: results.map((result) => result.claimed) };
}

async function main(): Promise<void> {
  const env = readBenchEnv();
  const count = Number(process.argv[2] ?? 10_000);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`episode count must be a positive integer`);
  const database = await resolveDatabase({ databaseUrl: env.DATABASE_URL });
  const name = `cyclium_bench_recovery_${randomBytes(4).toString("hex")}`;
  const server = new pg.Client({ connectionString: database.url });
  await server.connect();
  await server.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(database.url);
  url.pathname = `/${name}`;
  try {
    await migrate({ url: url.toString(), migrationsDir });
    const version = await server.query<{ server_version: string }>("SHOW server_version");
    const rows: Row[] = [];
    for (const gate of GATES) {
      for (const nodes of NODES) rows.push(await runCase(url.toString(), count, gate, nodes));
    }
    console.log(
      `\nRecovery sweep: ${count.toLocaleString("en-US")} stale episodes (restart policy), ` +
        `PostgreSQL ${version.rows[0]?.server_version ?? "?"}, ` +
        `${database.embedded ? "embedded server" : "DATABASE_URL"}\n`,
    );
    console.log("| gate | sweeping nodes | wall time | episodes/s | recovered per node |");
    console.log("|---|--:|--:|--:|---|");
    for (const row of rows) {
      console.log(
        `| ${row.gate} | ${row.nodes} | ${(row.ms / 1000).toFixed(2)} s | ` +
          `${Math.round(count / (row.ms / 1000)).toLocaleString("en-US")} | ${row.perNode.join(" / ")} |`,
      );
    }
  } finally {
    await server.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await server.end();
    if (database.embedded?.startedHere) await database.embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
