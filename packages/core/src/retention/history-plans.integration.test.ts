// Issue 16 item 4: every coordination statement and every console list keeps its cost flat as
// finished history grows. Each statement is sent by the core function that owns it (no SQL is
// copied here) through a Queryable that first runs it under EXPLAIN (ANALYZE, FORMAT JSON) in a
// rolled-back transaction, then for real. The assertions do not depend on how much history is
// seeded: no sequential scan of a table that holds history, and the rows read from those tables
// (returned + removed by filter or recheck, times loops) stay under EXAMINED_LIMIT while the
// history is HISTORY rows, so a plan that walked the history would read 40x the limit (the most
// any statement read here was 230 rows, the queue pickup).
// HISTORY is 40,000, not the 1M: seeding a million here takes ~5 min on this machine
// (200,000 with 3 steps, a request and a claim each took 57 s at load 10). It cannot be much
// smaller either: at 30,000 claims the planner rightly reads the whole claims table and sorts it
// for the claims list (a few hundred pages, cheaper than an index walk it expects to filter 99.5%
// of: it guesses 0.5% of keys have no '@env'); from ~35,000 on it walks the index and stops after
// one page, as it does at 1M. So these are the plans at scale, not a small table's.
import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireClaim, renewClaim } from "../claims/index";
import { listWorkClaims } from "../claims/queries/index";
import type { Queryable } from "../db/index";
import { endEpisodes, startEpisodes } from "../episodes/index";
import { takeQueuedEpisodes } from "../episodes/queued-episodes";
import { listEpisodes } from "../console/episodes/index";
import { listFindings } from "../findings/queries/index";
import { adoptAbandonedEpisodes } from "../recovery/index";
import { findStaleEpisodes } from "../recovery/find-stale-episodes";
import { seedStaleEpisodes } from "../recovery/testing/index";
import { claimTriggerRequests } from "../deferred/index";
import { listTriggerRequests } from "../console/deferred/index";
import { claimTriggerTurn } from "../triggers/claim-trigger-turn";
import { seedFinishedHistory } from "./testing/index";

const HISTORY = 40_000;
const EXAMINED_LIMIT = 1_000;
const HISTORY_TABLES = new Set([
  "cyclium_episodes",
  "cyclium_episode_steps",
  "cyclium_work_claims",
  "cyclium_trigger_requests",
  "cyclium_findings",
]);
const DAY = 86_400_000;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

interface Explained {
  text: string;
  seqScans: string[];
  /** Rows read from history tables (and their indexes). */
  examined: number;
}

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/** Rows a scan node read: returned plus thrown away, per loop. */
function rowsRead(node: PlanNode): number {
  const perLoop =
    (node["Actual Rows"] ?? 0) +
    (node["Rows Removed by Filter"] ?? 0) +
    (node["Rows Removed by Index Recheck"] ?? 0);
  return perLoop * (node["Actual Loops"] ?? 1);
}

/**
 * Explains every DML statement it is handed (ANALYZE, rolled back), then runs it for real. One
 * statement at a time: a function that sends two at once (a list and its counts) must not
 * interleave its BEGIN/EXPLAIN/ROLLBACK on the one connection.
 */
function explaining(client: pg.Client, into: Explained[]): Queryable {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    query(text: string, params?: unknown[]) {
      const run = queue.then(() => explainThenRun(client, into, text, params));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

async function explainThenRun(
  client: pg.Client,
  into: Explained[],
  text: string,
  params: unknown[] | undefined,
) {
  if (/^\s*(WITH|SELECT|INSERT|UPDATE|DELETE)\b/i.test(text)) {
    await client.query("BEGIN");
    try {
      const { rows } = await client.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
        params,
      );
      const plan = rows[0]!["QUERY PLAN"][0]!.Plan;
      const found: Explained = { text, seqScans: [], examined: 0 };
      walk(plan, (node) => {
        const table = node["Relation Name"];
        if (node["Node Type"] === "Seq Scan" && table && HISTORY_TABLES.has(table)) {
          found.seqScans.push(table);
        }
        // Index scans name their table; a bitmap's index scan names only its index.
        const ofHistory =
          (table !== undefined && HISTORY_TABLES.has(table)) ||
          [...HISTORY_TABLES].some((t) => node["Index Name"]?.startsWith(t));
        if (ofHistory && /Scan/.test(node["Node Type"])) found.examined += rowsRead(node);
      });
      into.push(found);
    } finally {
      await client.query("ROLLBACK");
    }
  }
  return client.query(text, params);
}

let db: TestDatabase;
let client: pg.Client;

beforeAll(async () => {
  db = await createTestDatabase();
  const spread = { finishedAgoMs: 60_000, spreadMs: 7 * DAY, stepsPerEpisode: 1 };
  const withAll = { withRequest: true, withClaim: true } as const;
  await seedFinishedHistory({ count: HISTORY * 0.8, ...spread, ...withAll }, db.pool);
  await seedFinishedHistory(
    { count: HISTORY * 0.2, status: "failed", actorId: "worker", ...spread, ...withAll },
    db.pool,
  );
  await db.pool.query(
    `INSERT INTO cyclium_findings (finding_key, class, status, cleared_at, inserted_at, updated_at)
     SELECT 'history:' || n, 'disk_full', 'cleared', t, t, t
       FROM generate_series(1, $1::int) AS g(n), LATERAL (SELECT now() - n * interval '10 s') AS x(t)`,
    [HISTORY / 2],
  );
  await db.pool.query("VACUUM ANALYZE");
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

/** Runs `work` through the explaining Queryable and checks every statement it sent. */
async function expectFlat(name: string, work: (q: Queryable) => Promise<unknown>) {
  const explained: Explained[] = [];
  await work(explaining(client, explained));
  expect(explained.length, `${name} sent no statement`).toBeGreaterThan(0);
  for (const statement of explained) {
    const where = `${name}: ${statement.text.replace(/\s+/g, " ").slice(0, 120)}`;
    expect(statement.seqScans, where).toEqual([]);
    expect(statement.examined, where).toBeLessThanOrEqual(EXAMINED_LIMIT);
  }
}

describe(`plans with ${HISTORY.toLocaleString("en-US")} finished episodes`, () => {
  it("coordination statements read live rows only", async () => {
    // Live work beside the history: 30 pending episodes with pending requests, 20 queued on a
    // dead node, 25 orphans (running, silent for 10 minutes) and one cron trigger.
    const { rows: pending } = await db.pool.query<{ id: string }>(
      `WITH e AS (
         INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type)
         SELECT 'live', 'run', 'pending', 'manual' FROM generate_series(1, 30) RETURNING id)
       INSERT INTO cyclium_trigger_requests (episode_id, actor_id, expectation_id, status)
       SELECT id, 'live', 'run', 'pending' FROM e RETURNING episode_id AS id`,
    );
    await db.pool.query(
      `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, queued_by, queued_at)
       SELECT 'live', 'run', 'pending', 'manual', 'gone-node', now() - interval '1 hour'
         FROM generate_series(1, 20)`,
    );
    await seedStaleEpisodes({ count: 25, actorId: "live", withSteps: true }, db.pool);
    const { rows: triggers } = await db.pool.query<{ id: string; next_fire_at: Date }>(
      `INSERT INTO cyclium_triggers (name, kind, cron, workflow, next_fire_at)
       VALUES ('every-minute', 'cron', '* * * * *', 'flow', date_trunc('minute', now()))
       RETURNING id, next_fire_at`,
    );
    await db.pool.query("ANALYZE");

    let claimed: Awaited<ReturnType<typeof claimTriggerRequests>> = [];
    await expectFlat("claim trigger requests", async (q) => {
      claimed = await claimTriggerRequests(
        {
          node: "n1",
          limits: [{ actorId: "live", limit: 24 }],
          sourceStack: null,
          sourceEnv: null,
        },
        q,
      );
    });
    expect(claimed).toHaveLength(24);
    const batch = claimed.slice(0, 10).map((request) => ({
      episodeId: request.episode.id,
      claimKey: `episode:${request.episode.id}`,
      requestId: request.id,
    }));
    let started: Awaited<ReturnType<typeof startEpisodes>> = [];
    await expectFlat("episode start", async (q) => {
      started = await startEpisodes({ owner: "n1", leaseSeconds: 30, episodes: batch }, q);
    });
    expect(started.map((outcome) => outcome.kind)).toEqual(batch.map(() => "started"));
    await expectFlat("claim renew", (q) =>
      renewClaim({ dedupeKey: batch[0]!.claimKey, owner: "n1", leaseSeconds: 30, attempt: 1 }, q),
    );
    await expectFlat("one-episode claim acquire", (q) =>
      acquireClaim({ dedupeKey: `episode:${pending[29]!.id}`, owner: "n1", leaseSeconds: 30 }, q),
    );
    let ended: Awaited<ReturnType<typeof endEpisodes>> = [];
    await expectFlat("episode end", async (q) => {
      ended = await endEpisodes(
        {
          node: "n1",
          ends: batch.map((entry) => ({
            episodeId: entry.episodeId,
            fence: { dedupeKey: entry.claimKey, owner: "n1", attempt: 1 },
            status: "completed" as const,
            result: { ok: true },
            finalStep: {
              attempt: 1,
              stepNo: 1,
              outcome: "done",
              data: null,
              durationMs: 1,
              turns: 1,
              tokens: 0,
            },
            triggerRequestId: entry.requestId,
          })),
        },
        q,
      );
    });
    expect(ended.map((outcome) => outcome.kind)).toEqual(batch.map(() => "ended"));
    let stale: Awaited<ReturnType<typeof findStaleEpisodes>> = [];
    await expectFlat("recovery sweep's stale episodes", async (q) => {
      stale = await findStaleEpisodes(
        { scope: { stack: null, env: null }, staleAfterMs: 120_000, limit: 10_000 },
        q,
      );
    });
    expect(stale).toHaveLength(25);
    await expectFlat("queue reconcile (adopt abandoned)", (q) =>
      adoptAbandonedEpisodes(
        { node: "n2", scope: { stack: null, env: null }, nodeSilenceMs: 60_000, limit: 100 },
        q,
      ),
    );
    await expectFlat("pending-episode pickup", (q) =>
      takeQueuedEpisodes({ node: "n2", actorId: "live", exclude: [], limit: 24 }, q),
    );
    const trigger = triggers[0]!;
    await expectFlat("cron claim", (q) =>
      claimTriggerTurn(
        { triggerId: trigger.id, due: trigger.next_fire_at, next: new Date(), fired: new Date() },
        q,
      ),
    );
  });

  it("console lists read one page", async () => {
    const page = { limit: 50 };
    await expectFlat("episode list", (q) =>
      listEpisodes({ db: q, filters: { env: null }, ...page }),
    );
    for (const status of ["completed", "failed", "running", "pending"] as const) {
      await expectFlat(`episode list, ${status}`, (q) =>
        listEpisodes({ db: q, filters: { env: null, status }, ...page }),
      );
    }
    await expectFlat("trigger request list", (q) =>
      listTriggerRequests({ db: q, filters: { env: null }, ...page }),
    );
    await expectFlat("trigger request list, pending", (q) =>
      listTriggerRequests({ db: q, filters: { env: null, status: "pending" }, ...page }),
    );
    await expectFlat("claims list", (q) =>
      listWorkClaims({ db: q, filters: { env: null }, ...page }),
    );
    await expectFlat("claims list, claimed", (q) =>
      listWorkClaims({ db: q, filters: { env: null, state: "claimed" }, ...page }),
    );
    for (const status of ["active", "cleared"] as const) {
      await expectFlat(`findings list, ${status}`, (q) =>
        listFindings({ db: q, filters: { env: null, status }, ...page }),
      );
    }
  });
});
