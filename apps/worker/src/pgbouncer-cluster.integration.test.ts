import { clearModeOverride, setModeOverride } from "@cyclium/core/console";
import type { CycliumNode } from "@cyclium/core/worker";
import {
  PIPELINE_DEPLOYMENT_PATH,
  PIPELINE_TRIGGER,
  PIPELINE_WORKFLOW,
} from "@cyclium/core/testing";
import { loadDeployment } from "@cyclium/core";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findPgBouncer, startPgBouncer, type PgBouncer } from "./testing/start-pgbouncer";
import { startWriterNode } from "./testing/start-writer-node";
import { spawnWorker, type WorkerProcess } from "./testing/spawn-worker";
import { TEST_ACTOR_IDS, testActors, testStrategies } from "./testing/test-actors";

// Three real worker processes and a trigger-only writer (the console's role) whose DATABASE_URL
// goes through Debian's pgbouncer in transaction pooling mode; only their LISTEN connections and
// the migrator's lock use CYCLIUM_LISTEN_DATABASE_URL, the direct one (docs/pgbouncer.md).
const PGBOUNCER = findPgBouncer();
if (PGBOUNCER === undefined) {
  console.warn(
    "SKIPPED pgbouncer-cluster: no pgbouncer binary (apt-get install pgbouncer; .ci/run does)",
  );
}
const IDENTITIES = ["bounced-1", "bounced-2", "bounced-3"];
/** Server connections pgbouncer may open for the test database: far fewer than 3 pools of 10. */
const SERVER_POOL = 8;

let db: TestDatabase;
let bouncer: PgBouncer;
let pooled: pg.Pool;
let workers: WorkerProcess[] = [];
let writer: CycliumNode;

describe.skipIf(PGBOUNCER === undefined)(
  "workers and a writer through PgBouncer (transaction mode)",
  () => {
    beforeAll(async () => {
      db = await createTestDatabase();
      bouncer = await startPgBouncer({
        binary: PGBOUNCER ?? "",
        serverUrl: process.env.CYCLIUM_TEST_SERVER_URL ?? "",
        poolSize: SERVER_POOL,
      });
      const pooledUrl = bouncer.urlFor(db.name);
      workers = IDENTITIES.map((identity) =>
        spawnWorker({
          identity,
          env: {
            DATABASE_URL: pooledUrl,
            CYCLIUM_LISTEN_DATABASE_URL: db.url,
            CYCLIUM_DEPLOYMENT: PIPELINE_DEPLOYMENT_PATH,
            // Pickup within the tests can only have come from NOTIFY on the direct connection.
            CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "60000",
            CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: "2",
            CYCLIUM_RECOVERY_DELAY_MS: "0",
            CYCLIUM_RECOVERY_INTERVAL_MS: "500",
            // Above the 5 s node heartbeat, so live nodes never look gone.
            CYCLIUM_STALE_AFTER_MS: "6000",
          },
        }),
      );
      pooled = new pg.Pool({ connectionString: pooledUrl, max: 10 });
      pooled.on("error", () => undefined);
      const pipeline = await loadDeployment(PIPELINE_DEPLOYMENT_PATH);
      writer = await startWriterNode({
        db: pooled,
        databaseUrl: db.url,
        nodeIdentity: "bounced-writer",
        leaseSeconds: 2,
        actors: [...testActors, ...pipeline.actors],
        strategies: { ...testStrategies, ...pipeline.strategies },
      });
      await Promise.all(workers.map((worker) => worker.ready));
    }, 60_000);

    afterAll(async () => {
      await writer?.stop({ graceMs: 0 });
      await Promise.all(workers.map((worker) => worker.stop("SIGKILL")));
      await pooled?.end();
      await bouncer?.stop();
      await db?.drop();
    }, 30_000);

    async function fire(actorIds: readonly string[], count: number, input: object) {
      const ids: string[] = [];
      for (let start = 0; start < count; start += 20) {
        const batch = Array.from({ length: Math.min(20, count - start) }, (_, i) =>
          writer.host.fire({
            actorId: actorIds[(start + i) % actorIds.length] ?? "alpha",
            expectationId: "run",
            triggerType: "manual",
            input,
          }),
        );
        for (const result of await Promise.all(batch)) {
          if (result.kind === "created") ids.push(result.episodeId);
        }
      }
      expect(ids).toHaveLength(count);
      return ids;
    }

    async function waitCompleted(ids: string[], timeout = 30_000) {
      await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM cyclium_episodes WHERE id = ANY($1::uuid[]) AND status = 'completed'",
            [ids],
          );
          expect(rows[0]?.n).toBe(ids.length);
        },
        { timeout, interval: 100 },
      );
    }

    it("drains 150 deferred requests exactly once across three workers, through the pooler", async () => {
      const ids = await fire(TEST_ACTOR_IDS, 150, { steps: 1, stepMs: 5 });
      await waitCompleted(ids);
      const runs = await db.pool.query<{ executed_by: string; steps: number }>(
        // The run's attempt is its own lease's (SPEC section 4): no claim row is written for it,
        // and the start consumed the request.
        `SELECT e.executed_by, e.attempt,
              (SELECT count(*)::int FROM cyclium_episode_steps s WHERE s.episode_id = e.id) AS steps,
              EXISTS (SELECT 1 FROM cyclium_work_claims c
                       WHERE c.dedupe_key = 'episode:' || e.id::text) AS claim_row,
              EXISTS (SELECT 1 FROM cyclium_trigger_requests r
                       WHERE r.episode_id = e.id) AS request_row
         FROM cyclium_episodes e
        WHERE e.id = ANY($1::uuid[]) AND e.status = 'completed'`,
        [ids],
      );
      expect(runs.rowCount).toBe(150);
      for (const run of runs.rows) {
        expect(run).toMatchObject({ steps: 1, attempt: 1, claim_row: false, request_row: false });
      }
      expect(new Set(runs.rows.map((run) => run.executed_by)).size).toBeGreaterThanOrEqual(2);

      // The traffic really went through pgbouncer: thousands of transactions on a handful of
      // server connections, and no worker or writer pool connection reached PostgreSQL directly.
      const admin = new pg.Client({ connectionString: bouncer.adminUrl() });
      await admin.connect();
      const stats = await admin.query<{ database: string; total_xact_count: string }>("SHOW STATS");
      await admin.end();
      const ours = stats.rows.find((row) => row.database === db.name);
      expect(Number(ours?.total_xact_count)).toBeGreaterThan(300);
      const direct = await db.pool.query<{ application_name: string; n: number }>(
        `SELECT application_name, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'cyclium-%'
        GROUP BY application_name ORDER BY application_name`,
      );
      // Each worker checked migrations at start under the migrator's session advisory lock, on the
      // direct connection: none is left behind on a pooled server connection.
      const locks = await db.pool.query(
        `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
        WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
      );
      expect(locks.rowCount).toBe(0);
      expect(workers[0]?.output.join("\n")).toContain("migrations checked");
      // One LISTEN connection per node; everything else came through the pooler.
      expect(direct.rows).toEqual([
        { application_name: "cyclium-web", n: 1 },
        { application_name: "cyclium-worker", n: 3 },
      ]);
    }, 60_000);

    it("applies a mode override published through the pooler within a second", async () => {
      const { rows: clock } = await db.pool.query<{ now: Date }>("SELECT now()");
      const setAt = clock[0]?.now ?? new Date();
      await setModeOverride({
        db: pooled,
        targetNode: "bounced-1",
        actorId: "alpha",
        mode: "trigger_only",
        setBy: "test",
      });
      const appliedAt = await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{ overrides: object; last_seen_at: Date }>(
            "SELECT overrides, last_seen_at FROM cyclium_nodes WHERE identity = 'bounced-1'",
          );
          expect(rows[0]?.overrides).toEqual({ alpha: "trigger_only" });
          return rows[0]?.last_seen_at ?? new Date(0);
        },
        { timeout: 3_000, interval: 20 },
      );
      expect(appliedAt.getTime() - setAt.getTime()).toBeLessThan(1_000);
      const ids = await fire(["alpha"], 30, { steps: 1, stepMs: 20 });
      await waitCompleted(ids);
      const taken = await db.pool.query(
        "SELECT 1 FROM cyclium_trigger_requests WHERE episode_id = ANY($1::uuid[]) AND claimed_by = 'bounced-1'",
        [ids],
      );
      expect(taken.rowCount).toBe(0);
      await clearModeOverride({ db: pooled, targetNode: "bounced-1", actorId: "alpha" });
      await vi.waitFor(async () => {
        const { rows } = await db.pool.query<{ overrides: object }>(
          "SELECT overrides FROM cyclium_nodes WHERE identity = 'bounced-1'",
        );
        expect(rows[0]?.overrides).toEqual({});
      });
    }, 30_000);

    it("fires each cron window once across the three workers", async () => {
      const firings = await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{ scheduled_time: Date; n: number }>(
            `SELECT scheduled_time, count(*)::int AS n FROM cyclium_trigger_firings
            WHERE trigger_name = $1 GROUP BY scheduled_time`,
            [PIPELINE_TRIGGER],
          );
          expect(rows.length).toBeGreaterThanOrEqual(3);
          return rows;
        },
        { timeout: 15_000, interval: 250 },
      );
      for (const firing of firings) expect(firing.n).toBe(1);
      const doubled = await db.pool.query(
        `SELECT firing_id FROM cyclium_workflow_instances WHERE workflow_name = $1
        GROUP BY firing_id HAVING count(*) > 1`,
        [PIPELINE_WORKFLOW],
      );
      expect(doubled.rows).toEqual([]);
    }, 20_000);

    it("recovers an episode of a worker killed with SIGKILL on another worker, once", async () => {
      const [id] = await fire(["pipeline_extract"], 1, { steps: 3, stepMs: 700 });
      const victim = await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{ node: string }>(
            "SELECT node FROM cyclium_episode_steps WHERE episode_id = $1",
            [id],
          );
          expect(rows.length).toBeGreaterThanOrEqual(1);
          return rows[0]?.node ?? "";
        },
        { timeout: 10_000, interval: 25 },
      );
      const worker = workers.find((candidate) => candidate.identity === victim);
      expect(worker).toBeDefined();
      await worker?.stop("SIGKILL");

      const row = await vi.waitFor(
        async () => {
          const { rows } = await db.pool.query<{
            status: string;
            attempt: number;
            executed_by: string;
            recovery_history: { node: string; outcome: string }[];
          }>(
            "SELECT status, attempt, executed_by, recovery_history FROM cyclium_episodes WHERE id = $1",
            [id],
          );
          expect(rows[0]?.status).toBe("completed");
          return rows[0];
        },
        { timeout: 25_000, interval: 100 },
      );
      expect(row?.attempt).toBe(2);
      expect(row?.executed_by).not.toBe(victim);
      expect(row?.recovery_history).toEqual([
        expect.objectContaining({ node: row?.executed_by, outcome: "restarted" }),
      ]);
      const claim = await db.pool.query<{ state: string; steals: number }>(
        "SELECT state, steals FROM cyclium_work_claims WHERE dedupe_key = $1",
        [`episode:${id}`],
      );
      // The victim held its lease in the episode's row: the sweep's claim gate took the key once,
      // after that lease lapsed, and released it; the restarted run held its own lease.
      expect(claim.rows).toEqual([expect.objectContaining({ state: "failed", steals: 0 })]);
    }, 40_000);
  },
);
