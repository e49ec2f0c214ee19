import { fireLoad } from "./fire-load";
import { QUIET_CLUSTER, type Scenario } from "./scenario";

/**
 * Scenario 1: the baseline. No faults; every fire must complete exactly once, and the SPEC's alert
 * conditions (steals, failed renewals) must stay silent. Episodes of three 800 ms steps outlive a
 * renewal interval (lease/3 = 2 s with the quiet scenarios' 6 s lease), so heartbeats renew while
 * episodes start and end around them.
 */
export const noFaults: Scenario = {
  id: 1,
  name: "no-faults",
  cluster: QUIET_CLUSTER,
  async run(run) {
    const count = run.quick ? 200 : 5_000;
    const tally = await fireLoad(run, {
      prefix: "s1",
      count,
      ratePerSec: run.quick ? 30 : 40,
      input: { steps: 3, stepMs: 800 },
    });
    return { fires: count, ...tally };
  },
};
