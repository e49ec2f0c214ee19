import { createTestDatabase, type TestDatabase } from "@cyclium/db/testing";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TTrpcContext } from "../init";
import { appRouter, createCaller } from "../root-router";

let database: TestDatabase;
/** Start of the minute bucket ten minutes ago, by the database clock (ISO). */
let minuteBucket: string;
let failedBucket: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.pool;
  const { rows } = await db.query<{ b: Date; f: Date }>(
    `SELECT date_bin('1 minute', now(), timestamptz '2000-01-01 00:00:00+00') - interval '10 minutes' AS b,
            date_bin('1 minute', now(), timestamptz '2000-01-01 00:00:00+00') - interval '8 minutes' AS f`,
  );
  minuteBucket = rows[0]!.b.toISOString();
  failedBucket = rows[0]!.f.toISOString();
  // Known timings. In the bucket ten minutes ago, four completed episodes of mailer, each started
  // 1 s into the minute: waits 1-4 s, run times 10-40 s. Two minutes later one failed episode
  // (wait 0.5 s, run 1.5 s) and one cancelled while pending (never started).
  const episode = `INSERT INTO cyclium_episodes
      (actor_id, expectation_id, status, trigger_type, source_env, inserted_at, started_at, finished_at)
    VALUES ($1, 'send', $2, 'manual', $3,
            $4::timestamptz - make_interval(secs => $5::float8 / 1000),
            $4::timestamptz,
            $4::timestamptz + make_interval(secs => $6::float8 / 1000))`;
  const startAt = (bucket: string) => new Date(new Date(bucket).getTime() + 1_000).toISOString();
  for (const [wait, run] of [
    [1_000, 10_000],
    [2_000, 20_000],
    [3_000, 30_000],
    [4_000, 40_000],
  ] as const) {
    await db.query(episode, ["mailer", "completed", null, startAt(minuteBucket), wait, run]);
  }
  await db.query(episode, ["mailer", "failed", null, startAt(failedBucket), 500, 1_500]);
  await db.query(
    `INSERT INTO cyclium_episodes (actor_id, expectation_id, status, trigger_type, inserted_at, finished_at)
     VALUES ('mailer', 'send', 'cancelled', 'manual', $1::timestamptz - interval '5 seconds', $1)`,
    [startAt(failedBucket)],
  );
  // Not counted in the last hour: another actor, another env, one finished two hours ago (in 6 h),
  // one still running.
  await db.query(episode, ["indexer", "completed", null, startAt(minuteBucket), 9_000, 9_000]);
  await db.query(episode, ["mailer", "completed", "staging", startAt(minuteBucket), 7_000, 7_000]);
  await db.query(
    `INSERT INTO cyclium_episodes
       (actor_id, expectation_id, status, trigger_type, inserted_at, started_at, finished_at)
     VALUES ('mailer', 'send', 'completed', 'manual', now() - interval '2 hours 1 minute',
             now() - interval '2 hours', now() - interval '2 hours' + interval '2 seconds'),
            ('mailer', 'send', 'running', 'manual', now() - interval '1 minute', now(), NULL)`,
  );
  // The alert conditions: two steals in the minute bucket (per-minute rollup), three failed
  // renewals two days ago (already summed into the hourly rollup).
  await db.query(
    `INSERT INTO cyclium_telemetry (bucket, event, node, count)
     VALUES ($1, 'cyclium.work_claims.steal', 'w1', 2), ($1, 'cyclium.work_claims.acquired', 'w1', 9)`,
    [minuteBucket],
  );
  await db.query(
    `INSERT INTO cyclium_telemetry_hourly (bucket, event, node, count)
     VALUES (date_trunc('hour', now()) - interval '2 days', 'cyclium.work_claims.renew_failed', 'w1', 3)`,
  );
});

afterAll(async () => {
  await database.drop();
});

function context(): TTrpcContext {
  return {
    db: database.pool,
    node: { identity: "web-test", mode: "trigger_only", env: null, stack: null },
    principal: {
      kind: "user",
      id: "00000000-0000-4000-8000-000000000001",
      name: "viewer@test",
      role: "viewer",
    },
    request: { ip: "127.0.0.1", userAgent: "vitest", origin: "same" },
  };
}

const alertTotals = (alerts: { event: string; total: number }[]) =>
  Object.fromEntries(alerts.map((series) => [series.event, series.total]));

describe("telemetry.actorCharts", () => {
  it("buckets one actor's finished episodes per minute with outcome counts and p50/p95", async () => {
    const charts = await createCaller(context()).telemetry.actorCharts({
      actorId: "mailer",
      range: "1h",
    });
    expect(charts).toMatchObject({ actorId: "mailer", env: null, range: "1h", bucket: "minute" });
    expect(charts.points).toHaveLength(60);
    expect(charts.totals).toEqual({ completed: 4, failed: 1, cancelled: 1 });

    const busy = charts.points.find((point) => point.bucket === minuteBucket);
    expect(busy).toMatchObject({ completed: 4, failed: 0, cancelled: 0 });
    // percentile_cont interpolates: p50 of 1,2,3,4 s is 2.5 s, p95 is 3 + 0.85 s.
    expect(busy?.waitP50Ms).toBeCloseTo(2_500, 3);
    expect(busy?.waitP95Ms).toBeCloseTo(3_850, 3);
    expect(busy?.runP50Ms).toBeCloseTo(25_000, 3);
    expect(busy?.runP95Ms).toBeCloseTo(38_500, 3);

    // The cancelled episode never started: it counts, but has no queue wait or run time.
    const failing = charts.points.find((point) => point.bucket === failedBucket);
    expect(failing).toMatchObject({ completed: 0, failed: 1, cancelled: 1 });
    expect(failing?.waitP50Ms).toBeCloseTo(500, 3);
    expect(failing?.runP95Ms).toBeCloseTo(1_500, 3);

    const quiet = charts.points.filter(
      (point) => point.bucket !== minuteBucket && point.bucket !== failedBucket,
    );
    expect(quiet).toHaveLength(58);
    for (const point of quiet) {
      expect(point).toMatchObject({ completed: 0, failed: 0, cancelled: 0, waitP50Ms: null });
    }
    // Buckets are consecutive whole minutes, oldest first, the range's bounds around them.
    const starts = charts.points.map((point) => Date.parse(point.bucket));
    expect(starts.every((start, i) => i === 0 || start - starts[i - 1]! === 60_000)).toBe(true);
    expect(charts.from).toBe(charts.points[0]?.bucket);
    expect(Date.parse(charts.to) - starts.at(-1)!).toBe(60_000);

    expect(alertTotals(charts.alerts)).toEqual({
      "cyclium.work_claims.steal": 2,
      "cyclium.work_claims.renew_failed": 0,
    });
    const steals = charts.alerts.find((series) => series.event === "cyclium.work_claims.steal");
    expect(steals?.points.find((point) => point.bucket === minuteBucket)?.count).toBe(2);
  });

  it("reads longer ranges per hour, and one env only", async () => {
    const caller = createCaller(context());
    const sixHours = await caller.telemetry.actorCharts({ actorId: "mailer", range: "6h" });
    expect(sixHours.points).toHaveLength(360);
    expect(sixHours.totals).toEqual({ completed: 5, failed: 1, cancelled: 1 });

    const day = await caller.telemetry.actorCharts({ actorId: "mailer", range: "24h" });
    expect(day.bucket).toBe("hour");
    expect(day.points).toHaveLength(24);
    expect(day.points.every((point) => new Date(point.bucket).getUTCMinutes() === 0)).toBe(true);
    expect(day.totals).toEqual({ completed: 5, failed: 1, cancelled: 1 });

    // A week reads the hourly rollups too: the failed renewals of two days ago are there.
    const week = await caller.telemetry.actorCharts({ actorId: "mailer", range: "7d" });
    expect(week.points).toHaveLength(168);
    expect(alertTotals(week.alerts)).toEqual({
      "cyclium.work_claims.steal": 2,
      "cyclium.work_claims.renew_failed": 3,
    });

    const staging = await caller.telemetry.actorCharts({
      actorId: "mailer",
      range: "1h",
      env: "staging",
    });
    expect(staging.totals).toEqual({ completed: 1, failed: 0, cancelled: 0 });
    const unknown = await caller.telemetry.actorCharts({ actorId: "nobody", range: "1h" });
    expect(unknown.totals).toEqual({ completed: 0, failed: 0, cancelled: 0 });
    expect(unknown.points).toHaveLength(60);
  });

  it("answers 400 for a range it does not offer or a missing actor", async () => {
    const caller = createCaller(context());
    await expect(
      // @ts-expect-error -- not one of the offered ranges; checked at run time too.
      caller.telemetry.actorCharts({ actorId: "mailer", range: "2h" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.telemetry.actorCharts({ actorId: " ", range: "1h" })).rejects.toMatchObject(
      { code: "BAD_REQUEST" },
    );
    const input = encodeURIComponent(JSON.stringify({ actorId: "mailer", range: "30d" }));
    const response = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request(`http://localhost/api/trpc/telemetry.actorCharts?input=${input}`),
      router: appRouter,
      createContext: () => context(),
    });
    expect(response.status).toBe(400);
  });
});
