/**
 * The ranges the console's per-actor charts offer, each with the bucket it is drawn in: per
 * minute up to 6 h (360 bars, as the per-minute charts draw), per hour beyond (24 or 168 bars;
 * per-minute rollups are kept 3 d by default, so a week reads the hourly ones too).
 */
export const ACTOR_CHART_RANGES = {
  "1h": { bucket: "minute", buckets: 60 },
  "6h": { bucket: "minute", buckets: 360 },
  "24h": { bucket: "hour", buckets: 24 },
  "7d": { bucket: "hour", buckets: 168 },
} as const satisfies Record<string, { bucket: "minute" | "hour"; buckets: number }>;

export type ActorChartRange = keyof typeof ACTOR_CHART_RANGES;
export type ChartBucket = (typeof ACTOR_CHART_RANGES)[ActorChartRange]["bucket"];

export const ACTOR_CHART_RANGE_NAMES = Object.keys(ACTOR_CHART_RANGES) as [
  ActorChartRange,
  ...ActorChartRange[],
];

/**
 * SQL for a range's bounds, by the database clock: buckets aligned to whole UTC minutes or hours
 * (date_bin from a UTC origin, so the session's TimeZone cannot shift them), the current partial
 * bucket last. `step` is the placeholder of the bucket's interval text.
 */
export function rangeBoundsSql(step: string, buckets: number): { from: string; to: string } {
  const current = `date_bin(${step}::interval, now(), timestamptz '2000-01-01 00:00:00+00')`;
  return {
    from: `(${current} - ${step}::interval * ${String(buckets - 1)})`,
    to: `(${current} + ${step}::interval)`,
  };
}

export function bucketInterval(bucket: ChartBucket): string {
  return bucket === "minute" ? "1 minute" : "1 hour";
}
