import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresWorkClaims } from "../claims/index";
import { silentLogger, Telemetry, type TelemetryEvent } from "../telemetry/index";
import { DEFAULT_RETENTION_POLICY, listPrunerRuns, runPruner, type RetentionPolicy } from "./index";
import { seedFinishedHistory } from "./testing/index";

const DAY = 86_400_000;
const HOUR = 3_600_000;
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db.drop();
});

const count = async (sql: string, params: unknown[] = []): Promise<number> => {
  const { rows } = await db.pool.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
  return rows[0]?.n ?? -1;
};

const ago = (ms: number) => `now() - make_interval(secs => ${ms / 1000})`;

async function episodeOf(actorId: string, status: string, agoMs: number): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, inserted_at,
       started_at, finished_at)
     VALUES ($1, 'check', $2::text, 'manual', ${ago(agoMs)}, ${ago(agoMs)},
       CASE WHEN $2::text IN ('completed', 'failed', 'cancelled') THEN ${ago(agoMs)} END)
     RETURNING id`,
    [actorId, status],
  );
  return rows[0]!.id;
}

describe("the pruner's policies", () => {
  it("removes finished history past its age and keeps younger, active and referenced rows", async () => {
    // Finished episodes of the default policy (7 days): 10 days old go, 1 day old stay, each
    // with 3 steps, a checkpoint, a completed trigger request and a done claim.
    const withAll = { withCheckpoint: true, withRequest: true, withClaim: true } as const;
    await seedFinishedHistory(
      { count: 30, actorId: "plain", finishedAgoMs: 10 * DAY, ...withAll },
      db.pool,
    );
    await seedFinishedHistory(
      { count: 10, actorId: "plain", status: "cancelled", archived: true, finishedAgoMs: 9 * DAY },
      db.pool,
    );
    await seedFinishedHistory(
      { count: 12, actorId: "plain", finishedAgoMs: 1 * DAY, ...withAll },
      db.pool,
    );
    // Per-actor ages: `kept` forever, `short` one hour.
    await seedFinishedHistory({ count: 5, actorId: "kept", finishedAgoMs: 100 * DAY }, db.pool);
    await seedFinishedHistory({ count: 6, actorId: "short", finishedAgoMs: 2 * HOUR }, db.pool);
    // Active work of any age stays: running and pending episodes, a claimed claim.
    const running = await episodeOf("plain", "running", 30 * DAY);
    const pending = await episodeOf("plain", "pending", 30 * DAY);
    await db.pool.query(
      `INSERT INTO cyclium_work_claims (dedupe_key, state, owner_node, lease_until, updated_at)
       VALUES ('episode:${running}', 'claimed', 'n1', ${ago(29 * DAY)}, ${ago(29 * DAY)})`,
    );
    // An old failed episode of a running workflow instance, and one an active finding names.
    const { rows: wf } = await db.pool.query<{ id: string }>(
      `INSERT INTO cyclium_workflow_instances (workflow_name, status, inserted_at, updated_at)
       VALUES ('flow', 'running', ${ago(20 * DAY)}, ${ago(20 * DAY)}) RETURNING id`,
    );
    await seedFinishedHistory(
      {
        count: 2,
        actorId: "plain",
        status: "failed",
        finishedAgoMs: 20 * DAY,
        workflowInstanceId: wf[0]!.id,
      },
      db.pool,
    );
    const flagged = await episodeOf("plain", "completed", 20 * DAY);
    await db.pool.query(
      `INSERT INTO cyclium_findings (finding_key, class, status, episode_id, updated_at)
       VALUES ('k-active', 'limit_breach', 'active', $1, ${ago(20 * DAY)}),
              ('k-old', 'limit_breach', 'cleared', NULL, ${ago(40 * DAY)})`,
      [flagged],
    );
    await db.pool.query(
      `UPDATE cyclium_findings SET cleared_at = ${ago(40 * DAY)} WHERE finding_key = 'k-old'`,
    );
    // A finished workflow instance with no episode left goes; the running one stays.
    await db.pool.query(
      `INSERT INTO cyclium_workflow_instances (workflow_name, status, finished_at)
       VALUES ('flow', 'done', ${ago(10 * DAY)})`,
    );
    // Per-minute telemetry: 4 days old (one whole hour: 60 minutes of one event on two nodes)
    // is summed into one hourly row per node; an hour ago stays per minute.
    await db.pool.query(
      `INSERT INTO cyclium_telemetry (bucket, event, node, count, sum_ms, max_ms)
       SELECT date_trunc('hour', ${ago(4 * DAY)}) + make_interval(mins => m), 'cyclium.episode.completed',
              node, 2, 10, m
         FROM generate_series(0, 59) m, (VALUES ('n1'), ('n2')) v(node)
       UNION ALL
       SELECT date_trunc('minute', ${ago(HOUR)}), 'cyclium.episode.completed', 'n1', 1, 1, 1`,
    );
    // Firings, sweeps, sessions, audit entries.
    const { rows: trig } = await db.pool.query<{ id: string }>(
      `INSERT INTO cyclium_triggers (name, kind, cron, workflow) VALUES ('t', 'cron', '* * * * *', 'flow') RETURNING id`,
    );
    await db.pool.query(
      `INSERT INTO cyclium_trigger_firings (trigger_id, trigger_name, context_hash, source, status, inserted_at)
       VALUES ($1, 't', 'a', 'cron', 'completed', ${ago(20 * DAY)}),
              ($1, 't', 'b', 'cron', 'running', ${ago(20 * DAY)}),
              ($1, 't', 'c', 'cron', 'completed', ${ago(DAY)})`,
      [trig[0]!.id],
    );
    await db.pool.query(
      `INSERT INTO cyclium_recovery_sweeps (node, trigger, inserted_at)
       VALUES ('n1', 'scheduled', ${ago(40 * DAY)}), ('n1', 'scheduled', ${ago(DAY)})`,
    );
    const { rows: user } = await db.pool.query<{ id: string }>(
      `INSERT INTO cyclium_users (email, name, password_hash, role) VALUES ('p@x', 'p', 'h', 'viewer') RETURNING id`,
    );
    await db.pool.query(
      `INSERT INTO cyclium_sessions (id, user_id, expires_at)
       VALUES ('gone', $1, ${ago(2 * DAY)}), ('live', $1, now() + interval '1 day')`,
      [user[0]!.id],
    );
    await db.pool.query(
      `INSERT INTO cyclium_audit_log (principal, action, outcome, inserted_at)
       VALUES ('p', 'episode.cancel', 'ok', ${ago(900 * DAY)})`,
    );

    const policy: RetentionPolicy = {
      ...DEFAULT_RETENTION_POLICY,
      episodesByActor: { kept: null, short: HOUR },
    };
    const events: TelemetryEvent[] = [];
    const telemetry = new Telemetry();
    telemetry.subscribe((event) => events.push(event));
    const result = await runPruner(
      {
        claims: new PostgresWorkClaims({ db: db.pool }),
        owner: "pruner-1",
        leaseSeconds: 30,
        policy,
        trigger: "scheduled",
        batchSize: 7, // several batches per family
        logger: silentLogger,
        telemetry,
      },
      db.pool,
    );

    expect(result.kind).toBe("pruned");
    if (result.kind !== "pruned") return;
    expect(result.run.deleted).toMatchObject({
      episodes: 30 + 10 + 6,
      steps: (30 + 10 + 6) * 3,
      checkpoints: 30,
      triggerRequests: 30,
      workClaims: 30,
      workflowInstances: 1,
      telemetryMinutes: 120,
      triggerFirings: 1,
      recoverySweeps: 1,
      expiredSessions: 1,
      clearedFindings: 1,
      auditLog: 0,
    });
    expect(await count(`SELECT count(*) FROM cyclium_episodes WHERE actor_id = 'plain'`)).toBe(
      12 + 2 + 2 + 1,
    );
    expect(
      await count(`SELECT count(*) FROM cyclium_episodes WHERE id = ANY($1::uuid[])`, [
        [running, pending, flagged],
      ]),
    ).toBe(3);
    expect(await count(`SELECT count(*) FROM cyclium_episodes WHERE actor_id = 'kept'`)).toBe(5);
    expect(await count(`SELECT count(*) FROM cyclium_episodes WHERE actor_id = 'short'`)).toBe(0);
    expect(await count(`SELECT count(*) FROM cyclium_episode_steps`)).toBe((12 + 2 + 5) * 3);
    // The young done claims, the running episode's, and the pruner's own (`pruner:run`, done).
    expect(await count(`SELECT count(*) FROM cyclium_work_claims`)).toBe(12 + 1 + 1);
    expect(await count(`SELECT count(*) FROM cyclium_workflow_instances`)).toBe(1);
    expect(await count(`SELECT count(*) FROM cyclium_findings`)).toBe(1);
    expect(await count(`SELECT count(*) FROM cyclium_trigger_firings`)).toBe(2);
    expect(await count(`SELECT count(*) FROM cyclium_sessions`)).toBe(1);
    expect(await count(`SELECT count(*) FROM cyclium_audit_log`)).toBe(1);
    expect(await count(`SELECT count(*) FROM cyclium_telemetry`)).toBe(1);
    const { rows: hourly } = await db.pool.query<{
      node: string;
      count: string;
      sum_ms: number;
      max_ms: number;
    }>(`SELECT node, count::text, sum_ms, max_ms FROM cyclium_telemetry_hourly ORDER BY node`);
    expect(hourly).toEqual([
      { node: "n1", count: "120", sum_ms: 600, max_ms: 59 },
      { node: "n2", count: "120", sum_ms: 600, max_ms: 59 },
    ]);

    // Recorded for the console, reported as telemetry with a count per family.
    const [recorded] = await listPrunerRuns({ limit: 5 }, db.pool);
    expect(recorded).toMatchObject({
      id: result.run.id,
      status: "completed",
      trigger: "scheduled",
    });
    expect(recorded?.policies.episodesByActor).toEqual({ kept: null, short: HOUR });
    const run = events.find((event) => event.name === "cyclium.pruner.run");
    expect(run?.measurements).toMatchObject({
      episodes: 46,
      trigger_requests: 30,
      work_claims: 30,
    });
    expect(events.find((e) => e.name === "cyclium.pruner.deleted")?.measurements.count).toBe(
      result.run.totalDeleted,
    );

    // Nothing left to do: a second run removes nothing.
    const again = await runPruner(
      {
        claims: new PostgresWorkClaims({ db: db.pool }),
        owner: "pruner-2",
        leaseSeconds: 30,
        policy,
        trigger: "cli",
        logger: silentLogger,
        telemetry,
      },
      db.pool,
    );
    expect(again.kind === "pruned" && again.run.totalDeleted).toBe(0);
    expect(again.kind === "pruned" && again.capped).toBe(false);
  });

  it("says when its batch cap left history behind, so the next run comes soon", async () => {
    await seedFinishedHistory({ count: 5, actorId: "backlog", finishedAgoMs: 100 * DAY }, db.pool);
    const run = (owner: string) =>
      runPruner(
        {
          claims: new PostgresWorkClaims({ db: db.pool }),
          owner,
          leaseSeconds: 30,
          // The first test's "kept" rows stay kept: only the backlog is due.
          policy: { ...DEFAULT_RETENTION_POLICY, episodesByActor: { kept: null } },
          trigger: "scheduled",
          batchSize: 2,
          maxBatches: 2,
          logger: silentLogger,
          telemetry: new Telemetry(),
        },
        db.pool,
      );
    const first = await run("pruner-3");
    expect(first).toMatchObject({
      kind: "pruned",
      capped: true,
      run: { deleted: { episodes: 4 } },
    });
    const second = await run("pruner-4");
    expect(second).toMatchObject({
      kind: "pruned",
      capped: false,
      run: { deleted: { episodes: 1 } },
    });
  });
});
