import { fireLoad } from "./fire-load";
import { QUIET_CLUSTER, type Scenario } from "./scenario";

const MINUTE_MS = 60_000;

/**
 * Wall-clock offsets of the four workers and the writer: minutes either way, a hundred leases
 * and more. A lease computed from any node's wall clock would lapse at once (or never).
 */
export const WORKER_CLOCK_OFFSETS_MS = [
  5 * MINUTE_MS,
  -5 * MINUTE_MS,
  2 * MINUTE_MS,
  -1.5 * MINUTE_MS,
];
export const WRITER_CLOCK_OFFSET_MS = 3 * MINUTE_MS;

/**
 * Scenario 7: every process's `Date` is skewed by minutes (a preload), otherwise no faults. Each
 * episode outlives two renewal intervals of the quiet scenarios' 6 s lease, so it lives on
 * renewals. No lease may expire
 * early: no steal, no failed renewal, no aborted episode, no fenced write, all completed once.
 */
export const clockSkew: Scenario = {
  id: 7,
  name: "clock-skew",
  cluster: {
    ...QUIET_CLUSTER,
    clockOffsetsMs: WORKER_CLOCK_OFFSETS_MS,
    writerClockOffsetMs: WRITER_CLOCK_OFFSET_MS,
  },
  async run(run) {
    const count = run.quick ? 100 : 1_200;
    const tally = await fireLoad(run, {
      prefix: "s7",
      count,
      ratePerSec: 10,
      // Five steps of 1 s: five seconds and more, past two renewal intervals (2 s each).
      input: { steps: 5, stepMs: 1_000 },
    });
    return { fires: count, ...tally };
  },
};
