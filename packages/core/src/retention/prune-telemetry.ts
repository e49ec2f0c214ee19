import type { Queryable } from "../db/index";

/**
 * Moves the oldest whole hour of per-minute rollups older than `olderThanMs` into
 * cyclium_telemetry_hourly: one statement deletes that hour's minute rows and adds their sums to
 * the hour's row, so a kill between the two cannot happen and each minute row is counted once
 * (DELETE ... RETURNING only returns rows this statement removed). Returns the minute rows moved;
 * 0 when no whole hour is old enough. One hour is bounded: 60 rows per event and node.
 */
export async function rollUpOldestTelemetryHour(
  options: { olderThanMs: number },
  db: Queryable,
): Promise<number> {
  const { rows } = await db.query<{ moved: number }>(
    `WITH cutoff AS (
       SELECT date_trunc('hour', now() - make_interval(secs => $1::double precision / 1000)) AS at
     ), hour AS (
       SELECT date_trunc('hour', t.bucket) AS start
         FROM cyclium_telemetry t, cutoff
        WHERE t.bucket < cutoff.at
        ORDER BY t.bucket LIMIT 1
     ), moved AS (
       DELETE FROM cyclium_telemetry t USING hour
        WHERE t.bucket >= hour.start AND t.bucket < hour.start + interval '1 hour'
       RETURNING t.bucket, t.event, t.node, t.count, t.sum_ms, t.max_ms
     ), summed AS (
       INSERT INTO cyclium_telemetry_hourly AS h (bucket, event, node, count, sum_ms, max_ms)
       SELECT date_trunc('hour', bucket), event, node, sum(count), sum(sum_ms), max(max_ms)
         FROM moved GROUP BY 1, 2, 3
       ON CONFLICT (bucket, event, node) DO UPDATE
         SET count = h.count + EXCLUDED.count,
             sum_ms = h.sum_ms + EXCLUDED.sum_ms,
             max_ms = greatest(h.max_ms, EXCLUDED.max_ms)
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM moved)::int AS moved, (SELECT count(*) FROM summed) AS hours`,
    [options.olderThanMs],
  );
  return rows[0]?.moved ?? 0;
}
