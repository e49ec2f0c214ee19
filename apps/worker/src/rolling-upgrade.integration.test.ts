import { silentLogger, Telemetry, DeferredRunner } from "@cyclium/core/worker";
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { spawnWorker, type WorkerProcess } from "./testing/spawn-worker";

// A rolling upgrade to the episode's own lease (docs/work-claims.md, "Upgrading"): an "old" worker
// runs every episode under a claim row, as the releases before did
// (CYCLIUM_WORK_CLAIMS=postgres-claim-rows), a "new" one under the lease in the episode's row (the
// default), both on one database draining the same trigger requests, and one of them is killed
// (SIGKILL) mid-drain. The survivor's recovery takes the dead node's episodes once their leases
// lapse. The "old" worker is this release's code with claim rows forced: its run path is the
// previous release's; its recovery is this release's (reads lease_until; an actual old node's
// recovery does not, hence the stale-window rule in the doc).
let db: TestDatabase;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop("SIGKILL")));
});
afterAll(async () => {
  await db.drop();
});

const COUNT = 40;
const STEPS = 4;

function start(identity: string, model: "old" | "new"): WorkerProcess {
  const worker = spawnWorker({
    identity,
    env: {
      DATABASE_URL: db.url,
      ...(model === "old" ? { CYCLIUM_WORK_CLAIMS: "postgres-claim-rows" } : {}),
      // Short leases and a quick recovery, so the killed node's episodes move within the test.
      CYCLIUM_WORK_CLAIMS_LEASE_SECONDS: "2",
      CYCLIUM_RECOVERY_DELAY_MS: "0",
      CYCLIUM_RECOVERY_INTERVAL_MS: "1000",
      CYCLIUM_STALE_AFTER_MS: "3000",
      CYCLIUM_TRIGGER_POLL_INTERVAL_MS: "1000",
    },
  });
  workers.push(worker);
  return worker;
}

async function fireResumable(count: number): Promise<string[]> {
  const deferred = new DeferredRunner({
    db: db.pool,
    nodeIdentity: "console",
    stack: null,
    env: null,
    logger: silentLogger,
    telemetry: new Telemetry(),
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = await deferred.defer({
      actorId: "resumable",
      expectationId: "run",
      triggerType: "manual",
      dedupeKey: null,
      input: { steps: STEPS, stepMs: 150 },
    });
    if (created.kind !== "created") throw new Error("not created");
    ids.push(created.episode.id);
  }
  await deferred.flush();
  return ids;
}

async function stepsBy(node: string, ids: string[]): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cyclium_episode_steps
      WHERE episode_id = ANY($1::uuid[]) AND node = $2`,
    [ids, node],
  );
  return rows[0]?.n ?? 0;
}

describe.each([
  { killed: "old" as const, survivor: "new" as const },
  { killed: "new" as const, survivor: "old" as const },
])("an old and a new worker draining together, the $killed one killed", ({ killed, survivor }) => {
  it("loses nothing and runs nothing twice", async () => {
    const nodes = { old: `old-${killed}`, new: `new-${killed}` };
    const old = start(nodes.old, "old");
    const fresh = start(nodes.new, "new");
    const byModel = { old, new: fresh };
    await Promise.all([old.ready, fresh.ready]);
    const ids = await fireResumable(COUNT);
    // Both take work; the one to be killed is in the middle of some.
    await vi.waitFor(
      async () => {
        expect(await stepsBy(nodes.old, ids)).toBeGreaterThan(2);
        expect(await stepsBy(nodes.new, ids)).toBeGreaterThan(2);
      },
      { timeout: 30_000, interval: 25 },
    );
    await byModel[killed].stop("SIGKILL");

    await vi.waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM cyclium_episodes
            WHERE id = ANY($1::uuid[]) AND status = 'completed'`,
          [ids],
        );
        expect(rows[0]?.n).toBe(COUNT);
      },
      { timeout: 60_000, interval: 200 },
    );

    // Nothing lost, nothing run twice: each step's side effect (the exactly-once outputs) once,
    // no step journaled twice, one completed run per episode, no lease or request left behind.
    const outputs = await db.pool.query<{ id: string; steps: number[] }>(
      `SELECT e.id, coalesce(array_agg((o.value->>'step')::int ORDER BY (o.value->>'step')::int)
                FILTER (WHERE o.episode_id IS NOT NULL), '{}') AS steps
         FROM cyclium_episodes e LEFT JOIN cyclium_episode_outputs o ON o.episode_id = e.id
        WHERE e.id = ANY($1::uuid[]) GROUP BY e.id`,
      [ids],
    );
    expect(outputs.rows).toHaveLength(COUNT);
    for (const row of outputs.rows) expect(row.steps).toEqual([1, 2, 3, 4]);
    const doubled = await db.pool.query(
      `SELECT episode_id, step_no FROM cyclium_episode_steps
        WHERE episode_id = ANY($1::uuid[]) GROUP BY episode_id, step_no HAVING count(*) > 1`,
      [ids],
    );
    expect(doubled.rows).toEqual([]);
    const finished = await db.pool.query<{ executed_by: string; n: number }>(
      `SELECT executed_by, count(*)::int AS n FROM cyclium_episodes
        WHERE id = ANY($1::uuid[]) AND lease_until IS NULL GROUP BY executed_by`,
      [ids],
    );
    expect(finished.rows.reduce((sum, row) => sum + row.n, 0)).toBe(COUNT);
    // A request is left only `claimed` by the killed node (an old node claims before it starts):
    // request maintenance releases it after the node's liveness window, and its episode having
    // ended, the next poll completes it without running anything.
    const left = await db.pool.query<{ status: string; claimed_by: string | null }>(
      `SELECT DISTINCT status, claimed_by FROM cyclium_trigger_requests
        WHERE episode_id = ANY($1::uuid[]) AND status IN ('pending', 'claimed')`,
      [ids],
    );
    for (const row of left.rows)
      expect(row).toEqual({ status: "claimed", claimed_by: nodes[killed] });
    // The killed node's episodes were taken over by the survivor (recovered, restarted).
    const recovered = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cyclium_episodes
        WHERE id = ANY($1::uuid[]) AND recovery_history @> $2::jsonb`,
      [ids, JSON.stringify([{ node: nodes[survivor], outcome: "restarted" }])],
    );
    expect(recovered.rows[0]?.n).toBeGreaterThan(0);
    // The survivor ran on its own model: the old worker's runs under claim rows (done, its own),
    // the new one's in-row (completed there with no claim row at all).
    const survived = await db.pool.query<{ claim_rows: number; bare: number }>(
      `SELECT count(*) FILTER (WHERE c.state = 'done' AND c.owner_node = $2)::int AS claim_rows,
              count(*) FILTER (WHERE c.dedupe_key IS NULL)::int AS bare
         FROM cyclium_episodes e
         LEFT JOIN cyclium_work_claims c ON c.dedupe_key = 'episode:' || e.id::text
        WHERE e.id = ANY($1::uuid[]) AND e.executed_by = $2`,
      [ids, nodes[survivor]],
    );
    expect(survived.rows[0]?.[survivor === "old" ? "claim_rows" : "bare"]).toBeGreaterThan(0);
    if (survivor === "old") expect(survived.rows[0]?.bare).toBe(0);
    await byModel[survivor].stop("SIGTERM");
  }, 120_000);
});
