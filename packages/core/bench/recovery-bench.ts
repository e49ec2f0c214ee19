/**
 * Recovery sweep throughput: wall time until 10,000 stale episodes are recovered, by 1 and by 4
 * sweeping nodes at once, with the work-claim gate (`CYCLIUM_WORK_CLAIMS=postgres`, the worker
 * default) and without it. Four nodes run twice: in this process with a pool each (one event
 * loop for all), and as four processes of their own (bench/recovery-bench-node.ts, started and
 * connected before the clock starts, then told to sweep at once), as four workers would. Every
 * episode must be recovered exactly once; the run fails loudly if not. Not a test. Run with
 *
 *   pnpm --filter @cyclium/core bench:recovery [episodes] [--gate work-claims] [--layouts 4p]
 *
 * (10000 episodes by default; `--gate` one of `recovery-claim`, `work-claims`; `--layouts` a
 * comma list of `1`, `4`, `4p`: in-process nodes, or `4p` for four processes.)
 *
 * It uses the server of DATABASE_URL when set, else this checkout's embedded PostgreSQL, in a
 * scratch database of its own that it drops at the end.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { migrate, migrationsDir, resolveDatabase } from "@cyclium/db";
import { PostgresWorkClaims } from "../src/claims/index";
import { sweepOrphanedEpisodes, type SweepResult } from "../src/recovery/index";
import { seedStaleEpisodes } from "../src/recovery/testing/index";
import { Telemetry } from "../src/telemetry/index";
import { readBenchEnv } from "./env";

const GATES = { "recovery-claim": "recovery claim only", "work-claims": "work claims" } as const;
type Gate = (typeof GATES)[keyof typeof GATES];
const LAYOUTS = { "1": "1 (in-process)", "4": "4 (in-process)", "4p": "4 processes" } as const;
type Layout = keyof typeof LAYOUTS;

const argument = (name: string): string | undefined => {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? undefined : process.argv[index + 1];
};

interface Row {
  gate: Gate;
  layout: Layout;
  ms: number;
  perNode: number[];
}

async function runCase(url: string, count: number, gate: Gate, layout: Layout): Promise<Row> {
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  await admin.query(
    "TRUNCATE cyclium_episodes, cyclium_episode_steps, cyclium_work_claims CASCADE",
  );
  await seedStaleEpisodes({ count, dedupePrefix: null, withSteps: true }, admin);
  await admin.query("VACUUM ANALYZE cyclium_episodes, cyclium_episode_steps");
  let measured: { ms: number; perNode: number[] };
  try {
    measured =
      layout === "4p"
        ? await sweepInProcesses(url, count, gate, 4)
        : await sweepInThisProcess(url, count, gate, Number(layout));
  } catch (error) {
    await admin.end();
    throw error;
  }
  const { rows } = await admin.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM cyclium_episodes WHERE status = 'pending' AND jsonb_array_length(recovery_history) = 1",
  );
  await admin.end();
  const claimed = measured.perNode.reduce((sum, n) => sum + n, 0);
  if (claimed !== count || rows[0]?.n !== count) {
    throw new Error(
      `expected ${count} recovered exactly once, got ${claimed} claims, ${rows[0]?.n} rows`,
    );
  }
  return { gate, layout, ...measured };
}

/** Nodes as pools of this process: one event loop drives them all. */
async function sweepInThisProcess(
  url: string,
  count: number,
  gate: Gate,
  nodes: number,
): Promise<{ ms: number; perNode: number[] }> {
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
  return { ms: performance.now() - started, perNode: results.map((result) => result.claimed) };
}

interface NodeProcess {
  send(line: string): void;
  next(event: string): Promise<Record<string, unknown>>;
}

/** One sweeping node as a process of its own (recovery-bench-node.ts), ready once it answers. */
async function startNode(
  url: string,
  node: string,
  gate: Gate,
  count: number,
): Promise<NodeProcess> {
  const config = JSON.stringify({
    url,
    node,
    workClaims: gate === GATES["work-claims"],
    limit: count,
  });
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/recovery-bench-node.ts", config],
    { cwd: new URL("..", import.meta.url).pathname, stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let exited = false;
  child.once("exit", () => {
    exited = true;
    for (const wake of waiters) wake();
  });
  createInterface({ input: child.stdout }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      return;
    }
    for (const wake of waiters) wake();
  });
  const next = (event: string): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = lines.find((line) => line.event === event);
        if (found) {
          waiters.delete(check);
          resolve(found);
        } else if (exited) {
          waiters.delete(check);
          reject(new Error(`bench node ${node} exited before "${event}"`));
        }
      };
      waiters.add(check);
      check();
    });
  const handle: NodeProcess = { send: (line) => child.stdin.write(`${line}\n`), next };
  await next("ready");
  return handle;
}

/** Nodes as processes of their own: started and connected first, then told to sweep at once. */
async function sweepInProcesses(
  url: string,
  count: number,
  gate: Gate,
  nodes: number,
): Promise<{ ms: number; perNode: number[] }> {
  const started = await Promise.all(
    Array.from({ length: nodes }, (_, i) => startNode(url, `bench-${i}`, gate, count)),
  );
  const clock = performance.now();
  for (const node of started) node.send("go");
  const results = await Promise.all(started.map((node) => node.next("swept")));
  return {
    ms: performance.now() - clock,
    perNode: results.map((result) => result.claimed as number),
  };
}

async function main(): Promise<void> {
  const env = readBenchEnv();
  const positional = process.argv[2];
  const count = Number(
    positional === undefined || positional.startsWith("--") ? 10_000 : positional,
  );
  const gates = (argument("gate") ?? Object.keys(GATES).join(",")).split(",").map((name) => {
    if (!(name in GATES)) throw new Error(`--gate: one of ${Object.keys(GATES).join(", ")}`);
    return GATES[name as keyof typeof GATES];
  });
  const layouts = (argument("layouts") ?? Object.keys(LAYOUTS).join(",")).split(",").map((name) => {
    if (!(name in LAYOUTS)) throw new Error(`--layouts: from ${Object.keys(LAYOUTS).join(", ")}`);
    return name as Layout;
  });
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
    for (const gate of gates) {
      for (const layout of layouts) rows.push(await runCase(url.toString(), count, gate, layout));
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
        `| ${row.gate} | ${LAYOUTS[row.layout]} | ${(row.ms / 1000).toFixed(2)} s | ` +
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
