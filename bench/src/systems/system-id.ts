/**
 * The systems under test. `pg-boss` runs with pg-boss's defaults (one job per fetch, a fetch
 * every 2 s per worker); `pg-boss-batched` with its batching on, as graphile-worker is, so the
 * comparison with a tuned competitor is also on the table. `dbos` is DBOS Transact's queue with a
 * workflow of one step per item (systems/dbos/settings.ts says how it is tuned). `sql-floor` is no runtime: our own
 * claim, start and end statements in loops (systems/sql-floor), the ceiling our tables allow.
 */
export const SYSTEM_IDS = [
  "cyclium",
  "graphile-worker",
  "pg-boss",
  "pg-boss-batched",
  "dbos",
  "sql-floor",
  "cyclium-traced",
  "cyclium-limited",
] as const;

/**
 * What `pnpm bench` runs without `--systems`. `cyclium-traced` (cyclium with the OpenTelemetry
 * SDK registered, see docs/tracing.md) is asked for by name: `--systems cyclium,cyclium-traced`
 * interleaves both in every repetition, so the report's ratio is tracing's cost. `--quick` leaves
 * out `sql-floor` too (a figure, not a check CI needs), and `cyclium-limited`: cyclium's drain
 * with the actor under a cluster-wide limit (`concurrency: { global: BENCH_GLOBAL_LIMIT }`), the
 * row that prices the limit gate (SPEC section 16) against plain `cyclium` in the same run.
 */
export const DEFAULT_SYSTEM_IDS: readonly BuiltinSystemId[] = SYSTEM_IDS.filter(
  (id) => id !== "cyclium-traced",
);
export const QUICK_SYSTEM_IDS: readonly BuiltinSystemId[] = DEFAULT_SYSTEM_IDS.filter(
  (id) => id !== "sql-floor" && id !== "cyclium-limited",
);

/** A system of this checkout, which any bench worker process can run. */
export type BuiltinSystemId = (typeof SYSTEM_IDS)[number];
/**
 * `--baseline <ref>`: cyclium (and `cyclium-limited`) as an earlier commit built it, run from its
 * own worktree.
 */
export type BaselineSystemId = `cyclium@${string}` | `cyclium-limited@${string}`;
export type SystemId = BuiltinSystemId | BaselineSystemId;

export function isSystemId(value: string): value is BuiltinSystemId {
  return (SYSTEM_IDS as readonly string[]).includes(value);
}
