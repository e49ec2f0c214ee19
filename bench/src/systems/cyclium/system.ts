import { silentLogger, Telemetry, DeferredRunner } from "@cyclium/core/worker";
import { migrate, migrationsDir } from "@cyclium/db";
import pg from "pg";
import { payloadOf } from "../payload";
import type { BenchSystem, DrainCheck } from "../system";
import { BENCH_ACTOR_ID, BENCH_EXPECTATION_ID, BENCH_SOURCE_NODE } from "./actor";
import { requestChecksSql } from "./request-checks";

/**
 * What the deferred runner of a trigger_only node writes per fire (SPEC section 6): a `pending`
 * episode and its `pending` trigger request, here for all items in one statement.
 */
const SEED_SQL = `
WITH items AS (
  SELECT n, payload FROM unnest($1::int[], $2::jsonb[]) AS t(n, payload)
),
episodes AS (
  INSERT INTO cyclium_episodes
    (actor_id, expectation_id, status, trigger_type, dedupe_key, input,
     source_node, source_stack, source_env)
  SELECT $3, $4, 'pending', 'manual', NULL, payload, $5, NULL, NULL FROM items ORDER BY n
  RETURNING id, (input->>'n')::int AS n
)
INSERT INTO cyclium_trigger_requests
  (episode_id, actor_id, expectation_id, source_node, source_stack, source_env, status, opts)
SELECT id, $3, $4, $5, NULL, NULL, 'pending', '{}' FROM episodes ORDER BY n`;

/**
 * One row of the exactly-once check; each count must equal the item count (requestChecksSql for
 * the requests). `claims_done_once`: episodes completed at attempt 1 whose run's lease was
 * released, held in the episode's row (lease_until NULL, no claim row) or in a claim row `done`
 * at attempt 1 (`postgres-claim-rows`, and a `--baseline` before the episode's own lease).
 */
const CHECK_SQL = `
SELECT
  ${requestChecksSql("cyclium_episodes")}
  (SELECT count(DISTINCT input->>'n') FROM cyclium_episodes WHERE status = 'completed')::int AS items_completed,
  (SELECT count(*) FROM cyclium_episodes)::int AS episodes,
  (SELECT count(*) FROM cyclium_episode_steps)::int AS steps,
  (SELECT count(*) FROM cyclium_episodes e
    WHERE e.status = 'completed' AND e.attempt = 1 AND e.lease_until IS NULL
      AND NOT EXISTS (SELECT 1 FROM cyclium_work_claims w
                       WHERE w.dedupe_key = 'episode:' || e.id::text
                         AND (w.state <> 'done' OR w.attempt <> 1)))::int AS claims_done_once`;

interface CheckRow {
  requests_settled: number;
  requests_at_most_one: number;
  items_completed: number;
  episodes: number;
  steps: number;
  claims_done_once: number;
}

export const cycliumSystem: BenchSystem = {
  id: "cyclium",
  label: "cyclium",
  settings:
    "createCycliumNode (full, postgres work claims, poller with prefetch 500), maxConcurrentEpisodes = concurrency, pool = concurrency + 1 with named prepared statements (as runWorker on a direct connection); @cyclium/core's build (dist/, as apps/worker's start:prod)",
  async install(url) {
    await migrate({ url, migrationsDir });
  },
  async seed(url, count) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const items = Array.from({ length: count }, (_, n) => n);
      await client.query(SEED_SQL, [
        items,
        items.map((n) => JSON.stringify(payloadOf(n))),
        BENCH_ACTOR_ID,
        BENCH_EXPECTATION_ID,
        BENCH_SOURCE_NODE,
      ]);
    } finally {
      await client.end();
    }
  },
  remainingSql: `SELECT count(*)::int AS remaining FROM cyclium_trigger_requests
                  WHERE status IN ('pending', 'claimed')`,
  async check(client, count): Promise<DrainCheck> {
    const { rows } = await client.query<CheckRow>(CHECK_SQL);
    const row = rows[0];
    if (row === undefined) return { completed: 0, problems: ["check query returned no row"] };
    const problems = Object.entries(row)
      .filter(([, value]) => value !== count)
      .map(([name, value]) => `${name} = ${String(value)}, expected ${count}`);
    return { completed: row.requests_settled, problems };
  },
  createFirer(url) {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const runner = new DeferredRunner({
      db: pool,
      nodeIdentity: BENCH_SOURCE_NODE,
      stack: null,
      env: null,
      logger: silentLogger,
      telemetry: new Telemetry(),
    });
    return Promise.resolve({
      async fire(item) {
        const result = await runner.defer({
          actorId: BENCH_ACTOR_ID,
          expectationId: BENCH_EXPECTATION_ID,
          triggerType: "manual",
          dedupeKey: null,
          input: payloadOf(item),
        });
        if (result.kind !== "created") throw new Error(`fire ${item} was deduplicated`);
      },
      async close() {
        await runner.flush();
        await pool.end();
      },
    });
  },
};

/** Cyclium with the tracing SDK registered in its workers (an in-process, dropping exporter). */
export const cycliumTracedSystem: BenchSystem = {
  ...cycliumSystem,
  id: "cyclium-traced",
  label: "cyclium, traced",
};

/** Cyclium with its bench actor under a cluster-wide limit (`concurrency: { global: 24 }`). */
export const cycliumLimitedSystem: BenchSystem = {
  ...cycliumSystem,
  id: "cyclium-limited",
  label: "cyclium, global limit 24",
};
