import type { Queryable } from "../db/index";

/** One per-minute aggregate of one event on one node. */
export interface TelemetryRollup {
  bucket: Date;
  event: string;
  node: string;
  count: number;
  sumMs: number;
  maxMs: number;
}

// One round trip for the whole batch: unnest turns the parallel arrays into rows, and the
// conflict clause adds to a minute another flush (or another process of the same node) wrote.
const SQL = `
INSERT INTO cyclium_telemetry AS t (bucket, event, node, count, sum_ms, max_ms)
SELECT * FROM unnest($1::timestamptz[], $2::varchar[], $3::varchar[], $4::bigint[], $5::float8[], $6::float8[])
ON CONFLICT (bucket, event, node) DO UPDATE
   SET count = t.count + EXCLUDED.count,
       sum_ms = t.sum_ms + EXCLUDED.sum_ms,
       max_ms = GREATEST(t.max_ms, EXCLUDED.max_ms)`;

/**
 * Adds rollups to `cyclium_telemetry`. The rows must be unique on (bucket, event, node): one
 * INSERT ... ON CONFLICT cannot update the same row twice.
 */
export async function writeTelemetryRollups(
  options: { rollups: readonly TelemetryRollup[] },
  db: Queryable,
): Promise<number> {
  const { rollups } = options;
  if (rollups.length === 0) return 0;
  const result = await db.query(SQL, [
    rollups.map((r) => r.bucket.toISOString()),
    rollups.map((r) => r.event),
    rollups.map((r) => r.node),
    rollups.map((r) => Math.round(r.count)),
    rollups.map((r) => r.sumMs),
    rollups.map((r) => r.maxMs),
  ]);
  return result.rowCount ?? 0;
}
