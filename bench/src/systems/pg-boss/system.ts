import { PgBoss } from "pg-boss";
import { payloadOf } from "../payload";
import type { BenchSystem } from "../system";
import {
  PG_BOSS_QUEUE,
  pgBossConstructorOptions,
  pgBossQueueOptions,
  type PgBossVariant,
} from "./settings";

const SEED_SLICE = 10_000;

/**
 * Jobs stay in pgboss.job after completion (state `completed`) until retention deletes them, so
 * the check sees every item, and a second execution would show as a retry.
 */
const CHECK_SQL = `
SELECT count(*) FILTER (WHERE state = 'completed')::int AS completed,
       count(DISTINCT data->>'n') FILTER (WHERE state = 'completed')::int AS items_completed,
       count(*) FILTER (WHERE retry_count > 0)::int AS retried,
       count(*) FILTER (WHERE state = 'failed')::int AS failed
  FROM pgboss.job WHERE name = $1`;

async function withBoss<T>(
  url: string,
  variant: PgBossVariant,
  work: (boss: PgBoss) => Promise<T>,
) {
  // No supervision or scheduling here: this instance only installs, inserts or sends.
  const boss = new PgBoss({
    ...pgBossConstructorOptions(url, variant),
    supervise: false,
    schedule: false,
  });
  boss.on("error", (err) => process.stderr.write(`pg-boss (bench parent): ${String(err)}\n`));
  await boss.start();
  try {
    return await work(boss);
  } finally {
    await boss.stop({ graceful: false });
  }
}

export function pgBossSystem(variant: PgBossVariant): BenchSystem {
  const defaults = variant === "defaults";
  return {
    id: defaults ? "pg-boss" : "pg-boss-batched",
    label: defaults ? "pg-boss (defaults)" : "pg-boss (batched)",
    settings: defaults
      ? "pg-boss 12, default options (batchSize 1, localConcurrency 1, pollingIntervalSeconds 2, no NOTIFY)"
      : "pg-boss 12, batchSize 100, burstWhenBatchFull, localConcurrency 4, LISTEN/NOTIFY",
    async install(url) {
      await withBoss(url, variant, (boss) =>
        boss.createQueue(PG_BOSS_QUEUE, pgBossQueueOptions(variant)),
      );
    },
    async seed(url, count) {
      await withBoss(url, variant, async (boss) => {
        for (let first = 0; first < count; first += SEED_SLICE) {
          const jobs = Array.from({ length: Math.min(SEED_SLICE, count - first) }, (_, i) => ({
            data: payloadOf(first + i),
          }));
          await boss.insert(PG_BOSS_QUEUE, jobs);
        }
      });
    },
    remainingSql: `SELECT count(*)::int AS remaining FROM pgboss.job
                    WHERE name = '${PG_BOSS_QUEUE}' AND state <> 'completed'`,
    async check(client, count) {
      const { rows } = await client.query<{
        completed: number;
        items_completed: number;
        retried: number;
        failed: number;
      }>(CHECK_SQL, [PG_BOSS_QUEUE]);
      const row = rows[0];
      if (row === undefined) return { completed: 0, problems: ["check query returned no row"] };
      const problems: string[] = [];
      if (row.completed !== count) problems.push(`completed = ${row.completed}, expected ${count}`);
      if (row.items_completed !== row.completed) problems.push("an item completed twice");
      if (row.retried !== 0) problems.push(`${row.retried} jobs retried`);
      if (row.failed !== 0) problems.push(`${row.failed} jobs failed`);
      return { completed: row.completed, problems };
    },
    async createFirer(url) {
      const boss = new PgBoss({
        ...pgBossConstructorOptions(url, variant),
        supervise: false,
        schedule: false,
      });
      boss.on("error", (err) => process.stderr.write(`pg-boss (bench parent): ${String(err)}\n`));
      await boss.start();
      return {
        async fire(item) {
          const id = await boss.send(PG_BOSS_QUEUE, payloadOf(item));
          if (id === null) throw new Error(`pg-boss refused item ${item}`);
        },
        close: () => boss.stop({ graceful: false }),
      };
    },
    // At 0.5 jobs/s per process the defaults would need 5.5 h for 20,000 items.
    ...(defaults ? { slow: true as const } : {}),
  };
}
