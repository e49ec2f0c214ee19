import { fireLoad } from "./fire-load";
import { killRandomWorkers } from "./nemesis";
import type { Scenario } from "./scenario";

/**
 * Scenario 2: `kill -9` of a random worker every few seconds while the fires arrive, each killed
 * worker restarted under its identity, then the drain. Restart-policy episodes must all complete
 * exactly once, fail-policy ones caught mid-run must end `orphaned`.
 */
export const killWorkers: Scenario = {
  id: 2,
  name: "kill-9",
  async run(run) {
    const count = run.quick ? 300 : 5_000;
    // Quick: 12 s of fires, about four kills; full: 50 s, about sixteen.
    let firing = true;
    const load = fireLoad(run, {
      prefix: "s2",
      count,
      ratePerSec: run.quick ? 25 : 100,
      // Four steps of 50 ms: long enough that every kill catches episodes mid-run.
      input: { steps: 4, stepMs: 50 },
    }).finally(() => {
      firing = false;
    });
    const kills = await killRandomWorkers(run, { minMs: 2_000, maxMs: 4_000, done: () => !firing });
    const tally = await load;
    return { fires: count, kills, ...tally };
  },
};
