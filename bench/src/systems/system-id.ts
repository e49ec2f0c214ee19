/**
 * The systems under test. `pg-boss` runs with pg-boss's defaults (one job per fetch, a fetch
 * every 2 s per worker); `pg-boss-batched` with its batching on, as graphile-worker is, so the
 * comparison with a tuned competitor is also on the table.
 */
export const SYSTEM_IDS = [
  "cyclium",
  "graphile-worker",
  "pg-boss",
  "pg-boss-batched",
  "cyclium-traced",
] as const;

/**
 * What `pnpm bench` runs without `--systems`. `cyclium-traced` (cyclium with the OpenTelemetry
 * SDK registered, see docs/tracing.md) is asked for by name: `--systems cyclium,cyclium-traced`
 * interleaves both in every repetition, so the report's ratio is tracing's cost.
 */
export const DEFAULT_SYSTEM_IDS: readonly SystemId[] = SYSTEM_IDS.filter(
  (id) => id !== "cyclium-traced",
);
export type SystemId = (typeof SYSTEM_IDS)[number];

export function isSystemId(value: string): value is SystemId {
  return (SYSTEM_IDS as readonly string[]).includes(value);
}
