/** The actor every cyclium item runs under: one manual expectation, a no-op strategy. */
export const BENCH_ACTOR_ID = "bench_actor";
export const BENCH_EXPECTATION_ID = "noop";
/** `source_node` of the rows the bench writes as the trigger_only node would. */
export const BENCH_SOURCE_NODE = "bench-trigger-only";
/**
 * The `cyclium-limited` system's cluster-wide limit: one process's default concurrency, so one
 * process is gated on every start but never held back, and two are held to half their slots.
 */
export const BENCH_GLOBAL_LIMIT = 24;
