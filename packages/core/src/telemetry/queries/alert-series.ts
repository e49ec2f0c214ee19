import type { Queryable } from "../../db/index";
import { SqlParams } from "../../scope/index";
import { bucketInterval, type ChartBucket, rangeBoundsSql } from "./chart-range";
import { seriesOfRows, type TelemetrySeries, type TelemetrySeriesRow } from "./telemetry-series";

/** The seed's alert conditions: any steal in normal operation, any failed renewal. */
export const ALERT_EVENTS = [
  "cyclium.work_claims.steal",
  "cyclium.work_claims.renew_failed",
] as const;

/**
 * Counts of the alert events per minute or hour over the last `buckets`, summed over nodes, from
 * both rollup tables: the pruner moves whole hours from cyclium_telemetry into
 * cyclium_telemetry_hourly in one statement, so a row is in exactly one of them and a week reads
 * the recent minutes and the older hours. Each side is an (event, bucket) index range.
 */
export async function readAlertSeries(options: {
  db: Queryable;
  bucket: ChartBucket;
  buckets: number;
}): Promise<TelemetrySeries[]> {
  const params = new SqlParams();
  const events = params.add(ALERT_EVENTS);
  const step = params.add(bucketInterval(options.bucket));
  const bounds = rangeBoundsSql(step, options.buckets);
  const { rows } = await options.db.query<TelemetrySeriesRow>(
    `WITH rolled AS (
       SELECT event, date_bin(${step}::interval, bucket, ${bounds.from}) AS bucket, count, sum_ms, max_ms
         FROM cyclium_telemetry
        WHERE event = ANY(${events}::text[]) AND bucket >= ${bounds.from} AND bucket < ${bounds.to}
       UNION ALL
       SELECT event, date_bin(${step}::interval, bucket, ${bounds.from}) AS bucket, count, sum_ms, max_ms
         FROM cyclium_telemetry_hourly
        WHERE event = ANY(${events}::text[]) AND bucket >= ${bounds.from} AND bucket < ${bounds.to}
     ),
     buckets AS (
       SELECT generate_series(${bounds.from}, ${bounds.to} - ${step}::interval,
                              ${step}::interval) AS bucket
     )
     SELECT e.event, k.bucket, coalesce(sum(r.count), 0)::text AS count,
            coalesce(sum(r.sum_ms), 0)::float8 AS sum_ms, coalesce(max(r.max_ms), 0)::float8 AS max_ms
       FROM unnest(${events}::text[]) AS e(event) CROSS JOIN buckets k
       LEFT JOIN rolled r ON r.event = e.event AND r.bucket = k.bucket
      GROUP BY e.event, k.bucket
      ORDER BY e.event, k.bucket`,
    params.values,
  );
  return seriesOfRows(ALERT_EVENTS, rows);
}
