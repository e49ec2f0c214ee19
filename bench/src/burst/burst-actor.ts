/** The actor of `pnpm bench --burst`: one expectation triggered by events of BURST_TOPIC. */
export const BURST_ACTOR_ID = "bench_burst";
export const BURST_EXPECTATION_ID = "on_event";
export const BURST_TOPIC = "bench.burst";
