import { performance } from "node:perf_hooks";
import type { CycliumClient } from "@cyclium/core/client";
import type pg from "pg";
import { statementCalls } from "../costs/cost-probes";
import { PostgresCpu } from "../pg/postgres-cpu";
import { sleep, type BenchContext } from "../scenarios/context";
import { cycliumSystem } from "../systems/cyclium/system";
import { BENCH_ACTOR_ID, BENCH_EXPECTATION_ID } from "../systems/cyclium/actor";
import { payloadOf } from "../systems/payload";
import { ORPHAN_ACTOR_ID, ORPHAN_EXPECTATION_ID } from "./scale-deployment";
import { ScaleNode, total, until } from "./scale-node";

const IDLE_SETTLE_MS = 10_000;
/** Probe items are numbered from here, apart from the drain's 0 .. drainItems - 1. */
const PROBE_BASE = 1_000_000;
/**
 * The drain's requests not completed yet (the orphans' stay `claimed` until they are recovered),
 * and the database's client backends but this one.
 */
const DRAIN_SQL = `
SELECT (SELECT count(*) FROM cyclium_trigger_requests
         WHERE actor_id = $1 AND status IN ('pending', 'claimed'))::int AS remaining,
       (SELECT count(*) FROM pg_stat_activity
         WHERE datname = current_database() AND backend_type = 'client backend'
           AND pid <> pg_backend_pid())::int AS backends`;

export interface Database {
  name: string;
  url: string;
}

/** A victim node starts `count` orphans, hangs in their step, and is killed with SIGKILL. */
export async function leaveOrphans(database: Database, client: CycliumClient, count: number) {
  const victim = new ScaleNode(database.url, `victim-${database.name}`, true);
  await victim.process.next("ready");
  await Promise.all(
    Array.from({ length: count }, (_, n) =>
      client.fire({
        actorId: ORPHAN_ACTOR_ID,
        expectationId: ORPHAN_EXPECTATION_ID,
        input: payloadOf(n),
      }),
    ),
  );
  await until("the victim's orphans", () => victim.latest.hung >= count);
  victim.process.kill();
  await victim.process.exited;
}

/** Commits, server CPU and backends of the database while the workers have nothing to do. */
export async function measureIdle(context: BenchContext, database: Database, seconds: number) {
  const { server } = context;
  await sleep(IDLE_SETTLE_MS);
  const cpu0 = await context.postgresCpu?.read();
  const c0 = await server.counters(database.name);
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const c1 = await server.counters(database.name);
  const cpu1 = await context.postgresCpu?.read();
  const elapsed = (performance.now() - t0) / 1000;
  const backends = await server.withAdmin(async (admin) => {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND backend_type = 'client backend'`,
      [database.name],
    );
    return rows[0]?.n ?? 0;
  });
  return {
    backends,
    commitsPerSecond: (c1.commits - c0.commits) / elapsed,
    cpuCores: cpu0 && cpu1 ? PostgresCpu.spent(cpu0, cpu1) / 1000 / elapsed : null,
  };
}

/** Fires `count` episodes one at a time; LISTEN deliveries and NOTIFY statements per fire. */
export async function probeNotify(
  context: BenchContext,
  database: Database,
  nodes: readonly ScaleNode[],
  client: CycliumClient,
  count: number,
) {
  const notifyCalls = () =>
    context.probes?.statements === true
      ? context.server.withAdmin(async (admin) => {
          let calls = 0;
          for (const { query, calls: n } of (await statementCalls(admin, database.name)).values())
            if (/notify/i.test(query)) calls += n;
          return calls;
        })
      : Promise.resolve(null);
  const n0 = total(nodes, (p) => p.notifications);
  const s0 = await notifyCalls();
  const e0 = total(nodes, (p) => p.executed);
  for (let i = 0; i < count; i += 1) {
    await client.fire({
      actorId: BENCH_ACTOR_ID,
      expectationId: BENCH_EXPECTATION_ID,
      input: payloadOf(PROBE_BASE + i),
    });
    await sleep(20);
  }
  await until("the probe episodes", () => total(nodes, (p) => p.executed) >= e0 + count);
  // The episodes' own end events reach the listeners a moment after their init ran.
  await sleep(300);
  const s1 = await notifyCalls();
  return {
    deliveriesPerFire: (total(nodes, (p) => p.notifications) - n0) / count,
    notifyStatementsPerFire: s0 === null || s1 === null ? null : (s1 - s0) / count,
  };
}

/**
 * Seeds `items` while the workers idle; items/s from the first claim to the last completion, and
 * the most backends the workers held meanwhile (the pools grow under load).
 */
export async function drain(database: Database, monitor: pg.Client, items: number) {
  await cycliumSystem.seed(database.url, items);
  let peakBackends = 0;
  const remaining = async () => {
    const { rows } = await monitor.query<{ remaining: number; backends: number }>(DRAIN_SQL, [
      BENCH_ACTOR_ID,
    ]);
    peakBackends = Math.max(peakBackends, rows[0]?.backends ?? 0);
    return rows[0]?.remaining ?? 0;
  };
  await until("the drain's first claim", async () => (await remaining()) < items);
  const started = performance.now();
  await until("the drain", async () => (await remaining()) === 0);
  return { itemsPerSecond: items / ((performance.now() - started) / 1000), peakBackends };
}

/** One sweep by every node at once; the time until every orphan ran to its end. */
export async function sweepAtOnce(
  nodes: readonly ScaleNode[],
  monitor: pg.Client,
  orphans: number,
  log: (message: string) => void,
) {
  const started = performance.now();
  for (const node of nodes) node.process.send({ type: "sweep" });
  await until("the recovered orphans", () => total(nodes, (p) => p.recovered) >= orphans).catch(
    async (error: unknown) => {
      const { rows } = await monitor.query(
        `SELECT status, attempt, count(*)::int AS n FROM cyclium_episodes
          WHERE actor_id = $1 GROUP BY 1, 2`,
        [ORPHAN_ACTOR_ID],
      );
      log(`orphans: ${JSON.stringify(rows)}; swept ${JSON.stringify(nodes.map((n) => n.swept))}`);
      throw error;
    },
  );
  const seconds = (performance.now() - started) / 1000;
  await until("every sweep's result", () => nodes.every((node) => node.swept.length > 0));
  const swept = nodes.flatMap((node) => node.swept);
  return {
    seconds,
    restarted: swept.reduce((sum, s) => sum + s.restarted, 0),
    found: Math.max(...swept.map((s) => s.found)),
  };
}
