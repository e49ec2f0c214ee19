import type { Queryable } from "../../db/index";
import { envScopeSql, SqlParams } from "../../scope/index";
import { readAlertSeries } from "./alert-series";
import {
  ACTOR_CHART_RANGES,
  type ActorChartRange,
  bucketInterval,
  type ChartBucket,
  rangeBoundsSql,
} from "./chart-range";
import type { TelemetrySeries } from "./telemetry-series";

export interface ActorChartPoint {
  /** Start of the bucket (UTC-aligned minute or hour). */
  bucket: Date;
  /** Episodes of the actor that finished in the bucket, by outcome. */
  completed: number;
  failed: number;
  cancelled: number;
  /**
   * Queue wait of those episodes (inserted_at -> started_at, ms): p50 and p95 by percentile_cont;
   * null when none of them started (an empty bucket, or only episodes cancelled while pending).
   */
  waitP50Ms: number | null;
  waitP95Ms: number | null;
  /** Run time of those episodes (started_at -> finished_at, ms), p50 and p95. */
  runP50Ms: number | null;
  runP95Ms: number | null;
}

export interface ActorCharts {
  actorId: string;
  env: string | null;
  range: ActorChartRange;
  bucket: ChartBucket;
  /** First bucket's start and the end of the last (current) bucket. */
  from: Date;
  to: Date;
  totals: { completed: number; failed: number; cancelled: number };
  points: ActorChartPoint[];
  /**
   * The seed's alert conditions over the same buckets (steal and renew_failed counts), from the
   * telemetry rollups: cluster-wide, since claim telemetry carries no actor (SPEC section 9).
   */
  alerts: TelemetrySeries[];
}

/**
 * One actor's finished episodes in one env over a range, per bucket: throughput by outcome and
 * p50/p95 of queue wait and run time. Each episode counts once, in the bucket it finished in.
 * One statement over cyclium_episodes_env_actor_finished_at_idx, bounded by the range (an index
 * range on (source_env, actor_id, finished_at), the timings read from the index's INCLUDE
 * columns); empty buckets are filled so the charts show a true zero, not a gap. A retried
 * episode's queue wait runs from its creation to its latest start.
 */
export async function readActorCharts(options: {
  db: Queryable;
  env: string | null;
  actorId: string;
  range: ActorChartRange;
}): Promise<ActorCharts> {
  const { bucket, buckets } = ACTOR_CHART_RANGES[options.range];
  const params = new SqlParams();
  const step = params.add(bucketInterval(bucket));
  const scope = envScopeSql("e.source_env", options.env, params);
  const actor = params.add(options.actorId);
  const bounds = rangeBoundsSql(step, buckets);
  const [series, alerts] = await Promise.all([
    options.db.query<{
      bucket: Date;
      range_from: Date;
      range_to: Date;
      completed: number;
      failed: number;
      cancelled: number;
      wait_p50: number | null;
      wait_p95: number | null;
      run_p50: number | null;
      run_p95: number | null;
    }>(
      `WITH finished AS (
         SELECT date_bin(${step}::interval, e.finished_at, ${bounds.from}) AS bucket, e.status,
                EXTRACT(EPOCH FROM e.started_at - e.inserted_at) * 1000 AS wait_ms,
                EXTRACT(EPOCH FROM e.finished_at - e.started_at) * 1000 AS run_ms
           FROM cyclium_episodes e
          WHERE ${scope} AND e.actor_id = ${actor} AND e.finished_at IS NOT NULL
            AND e.finished_at >= ${bounds.from} AND e.finished_at < ${bounds.to}
       ),
       buckets AS (
         SELECT generate_series(${bounds.from}, ${bounds.to} - ${step}::interval,
                                ${step}::interval) AS bucket
       )
       SELECT k.bucket, ${bounds.from} AS range_from, ${bounds.to} AS range_to,
              count(*) FILTER (WHERE f.status = 'completed')::int AS completed,
              count(*) FILTER (WHERE f.status = 'failed')::int AS failed,
              count(*) FILTER (WHERE f.status = 'cancelled')::int AS cancelled,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY f.wait_ms)::float8 AS wait_p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY f.wait_ms)::float8 AS wait_p95,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY f.run_ms)::float8 AS run_p50,
              percentile_cont(0.95) WITHIN GROUP (ORDER BY f.run_ms)::float8 AS run_p95
         FROM buckets k LEFT JOIN finished f ON f.bucket = k.bucket
        GROUP BY k.bucket
        ORDER BY k.bucket`,
      params.values,
    ),
    readAlertSeries({ db: options.db, bucket, buckets }),
  ]);
  const totals = { completed: 0, failed: 0, cancelled: 0 };
  const points = series.rows.map((row): ActorChartPoint => {
    totals.completed += row.completed;
    totals.failed += row.failed;
    totals.cancelled += row.cancelled;
    return {
      bucket: row.bucket,
      completed: row.completed,
      failed: row.failed,
      cancelled: row.cancelled,
      waitP50Ms: row.wait_p50,
      waitP95Ms: row.wait_p95,
      runP50Ms: row.run_p50,
      runP95Ms: row.run_p95,
    };
  });
  const first = series.rows[0];
  return {
    actorId: options.actorId,
    env: options.env,
    range: options.range,
    bucket,
    from: first?.range_from ?? new Date(),
    to: first?.range_to ?? new Date(),
    totals,
    points,
    alerts,
  };
}
