import type { Queryable } from "../../db/index";

export interface TelemetryPoint {
  /** Start of the minute. */
  bucket: Date;
  count: number;
  /** Mean duration of the minute's events that carried one (ms), else 0. */
  avgMs: number;
  maxMs: number;
}

export interface TelemetrySeries {
  event: string;
  total: number;
  points: TelemetryPoint[];
}

/** A row of a series query: one (event, bucket) with its counts rolled up over nodes. */
export interface TelemetrySeriesRow {
  event: string;
  bucket: Date;
  /** bigint sum, as text. */
  count: string;
  sum_ms: number;
  max_ms: number;
}

/**
 * The rows of a series query as one series per event, in the order of `events` (an event with no
 * row keeps an empty series); rows of other events are left out.
 */
export function seriesOfRows(
  events: readonly string[],
  rows: readonly TelemetrySeriesRow[],
): TelemetrySeries[] {
  const byEvent = new Map<string, TelemetrySeries>();
  for (const event of events) byEvent.set(event, { event, total: 0, points: [] });
  for (const row of rows) {
    const entry = byEvent.get(row.event);
    if (!entry) continue;
    const count = Number(row.count);
    entry.total += count;
    entry.points.push({
      bucket: row.bucket,
      count,
      avgMs: count > 0 ? row.sum_ms / count : 0,
      maxMs: row.max_ms,
    });
  }
  return [...byEvent.values()];
}

export interface TelemetrySeriesResult {
  from: Date;
  to: Date;
  minutes: number;
  node: string | null;
  series: TelemetrySeries[];
  /** Nodes that reported any event in the window, for the node filter. */
  nodes: string[];
}

/**
 * Per-minute counts of the given events over the last `minutes`, summed over nodes (or one node),
 * with empty minutes filled in so charts show a true zero rather than a gap. Reads
 * cyclium_telemetry through its (event, bucket) index. Telemetry is per node, not per env: the
 * rollups carry no env (SPEC section 9).
 */
export async function readTelemetrySeries(options: {
  db: Queryable;
  events: readonly string[];
  minutes: number;
  node?: string | null | undefined;
}): Promise<TelemetrySeriesResult> {
  const node = options.node ?? null;
  const [series, nodes, window] = await Promise.all([
    options.db.query<TelemetrySeriesRow>(
      `WITH minutes AS (
         SELECT generate_series(date_trunc('minute', now()) - make_interval(mins => $2 - 1),
                                date_trunc('minute', now()), interval '1 minute') AS bucket
       ),
       events AS (SELECT unnest($1::text[]) AS event)
       SELECT e.event, m.bucket, coalesce(sum(t.count), 0)::text AS count,
              coalesce(sum(t.sum_ms), 0)::float8 AS sum_ms, coalesce(max(t.max_ms), 0)::float8 AS max_ms
         FROM events e CROSS JOIN minutes m
         LEFT JOIN cyclium_telemetry t
           ON t.event = e.event AND t.bucket = m.bucket AND ($3::text IS NULL OR t.node = $3)
        GROUP BY e.event, m.bucket
        ORDER BY e.event, m.bucket`,
      [options.events, options.minutes, node],
    ),
    options.db.query<{ node: string }>(
      `SELECT DISTINCT node FROM cyclium_telemetry
        WHERE bucket >= date_trunc('minute', now()) - make_interval(mins => $1) ORDER BY node`,
      [options.minutes],
    ),
    options.db.query<{ from: Date; to: Date }>(
      `SELECT date_trunc('minute', now()) - make_interval(mins => $1 - 1) AS "from",
              date_trunc('minute', now()) AS "to"`,
      [options.minutes],
    ),
  ]);
  const bounds = window.rows[0];
  return {
    from: bounds?.from ?? new Date(),
    to: bounds?.to ?? new Date(),
    minutes: options.minutes,
    node,
    series: seriesOfRows(options.events, series.rows),
    nodes: nodes.rows.map((row) => row.node),
  };
}
