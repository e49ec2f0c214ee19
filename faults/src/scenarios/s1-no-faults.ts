import { fireLoad } from "./fire-load";
import type { Scenario } from "./scenario";

/** Scenario 1: the baseline. No faults; every fire must complete exactly once. */
export const noFaults: Scenario = {
  id: 1,
  name: "no-faults",
  async run(run) {
    const count = run.quick ? 300 : 5_000;
    const tally = await fireLoad(run, { prefix: "s1", count, ratePerSec: run.quick ? 100 : 150 });
    return { fires: count, ...tally };
  },
};
