import { setTimeout as sleep } from "node:timers/promises";
import { waitUntil } from "./drain";
import { busiestWorker, runningByNode, stillHeldBy } from "./episodes-held";
import { fireLoad } from "./fire-load";
import { procOf } from "./nemesis";
import type { Scenario, ScenarioRun } from "./scenario";

/**
 * One pause: SIGSTOP the worker running the most episodes, keep it stopped for three leases and
 * at least until other nodes have taken over (or orphaned) everything it held, then SIGCONT. Its
 * timers then fire late: steps finish, journal writes go out, and fencing must reject them all.
 */
export async function pauseOnce(
  run: ScenarioRun,
  /** Pause a worker only once it runs at least this many episodes at once. */
  minRunning = 4,
): Promise<{ held: number; pausedMs: number }> {
  const leaseMs = run.cluster.config.leaseSeconds * 1000;
  const slot = await busiestWorker(run, minRunning);
  const proc = procOf(slot);
  run.nemesis.write({ op: "nemesis", event: "pause", target: proc });
  slot.child.signal("SIGSTOP");
  const pausedAt = performance.now();
  // Who was mid-run at the instant of the stop, read again now that nothing of it can move.
  const held =
    (await runningByNode(run.databaseUrl)).find((r) => r.node === slot.identity)?.ids ?? [];
  run.log(`SIGSTOP ${proc} holding ${held.length} episodes`);
  await sleep(3 * leaseMs);
  await waitUntil(
    async () => (await stillHeldBy(run.databaseUrl, slot.identity, held)) === 0,
    120_000,
    250,
  );
  run.nemesis.write({ op: "nemesis", event: "resume", target: proc });
  slot.child.signal("SIGCONT");
  const pausedMs = performance.now() - pausedAt;
  run.log(`SIGCONT ${proc} after ${Math.round(pausedMs / 1000)} s`);
  return { held: held.length, pausedMs };
}

/** Scenario 3: SIGSTOP a worker holding episodes for three leases, then SIGCONT. */
export const pauseWorker: Scenario = {
  id: 3,
  name: "sigstop",
  async run(run) {
    const pauses = run.quick ? 1 : 3;
    let firing = true;
    const load = fireLoad(run, {
      prefix: "s3",
      count: run.quick ? 150 : 900,
      ratePerSec: 15,
      // 8 steps of 150 ms: over a second each, so that the paused worker is caught mid-run.
      input: { steps: 8, stepMs: 150 },
    }).finally(() => {
      firing = false;
    });
    let held = 0;
    let pausedMs = 0;
    for (let i = 0; i < pauses && firing; i += 1) {
      const pause = await pauseOnce(run);
      held += pause.held;
      pausedMs = Math.max(pausedMs, pause.pausedMs);
      await sleep(2_000);
    }
    const tally = await load;
    return { pauses, heldAtPause: held, longestPauseMs: Math.round(pausedMs), ...tally };
  },
};
