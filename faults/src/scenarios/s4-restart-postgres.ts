import { setTimeout as sleep } from "node:timers/promises";
import { waitUntil } from "./drain";
import { longestSilenceMs, runningByNode } from "./episodes-held";
import { fireLoad } from "./fire-load";
import { waitForQuiescence } from "./quiescence";
import { stallWindowMs, type Scenario, type ScenarioRun } from "./scenario";

/**
 * After a restart the writer publishes a probe every second until every worker has received one
 * published after the restart: their LISTEN connections reconnected and listen again. Returns
 * how long that took.
 */
export async function awaitBusBack(run: ScenarioRun, round: string): Promise<number> {
  const started = performance.now();
  let sent = 0;
  const seen = (): boolean =>
    run.cluster.workers.every((slot) =>
      slot.child.events.some(
        (line) => line.event === "probe" && String(line.id).startsWith(`r${round}-`),
      ),
    );
  const back = await waitUntil(
    async () => {
      if (seen()) return true;
      await run.cluster.writer
        .request({ cmd: "probe", probeId: `r${round}-${sent++}` }, 30_000)
        .catch(() => undefined);
      await sleep(1_000);
      return seen();
    },
    120_000,
    0,
  );
  if (!back)
    throw new Error(`not every worker received a bus probe within 2 minutes of restart ${round}`);
  return performance.now() - started;
}

/**
 * Scenario 4: PostgreSQL stopped in immediate mode (a crash: no checkpoint, every connection
 * cut) and started again while fires and episodes are in flight. Workers and the writer must
 * reconnect on their own, the bus must listen again, nothing acknowledged may be lost, and no
 * running episode may stay silent beyond the time recovery needs (the longest silence seen on a
 * running episode is sampled every second until the drain).
 */
export const restartPostgres: Scenario = {
  id: 4,
  name: "postgres-restart",
  async run(run) {
    const restarts = run.quick ? 1 : 3;
    let firing = true;
    const load = fireLoad(run, {
      prefix: "s4",
      count: run.quick ? 400 : 3_000,
      ratePerSec: run.quick ? 20 : 40,
      input: { steps: 4, stepMs: 100 },
    }).finally(() => {
      firing = false;
    });
    let maxSilenceMs = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxSilenceMs = Math.max(maxSilenceMs, (await longestSilenceMs(run.databaseUrl)) ?? 0);
        await sleep(1_000);
      }
    })();
    let busBackMs = 0;
    let downMs = 0;
    for (let round = 1; round <= restarts && firing; round += 1) {
      await waitUntil(
        async () => {
          const running = await runningByNode(run.databaseUrl).catch(() => []);
          return running.reduce((sum, node) => sum + node.ids.length, 0) >= 8;
        },
        120_000,
        200,
      );
      run.nemesis.write({ op: "nemesis", event: "pg-stop" });
      const restart = await run.server.restartImmediately(1_000);
      run.nemesis.write({ op: "nemesis", event: "pg-start" });
      downMs = Math.max(downMs, restart.downForMs);
      run.log(`postgres restarted (down ${Math.round(restart.downForMs)} ms)`);
      busBackMs = Math.max(busBackMs, await awaitBusBack(run, String(round)));
      await sleep(3_000);
    }
    const tally = await load;
    // Sample until the cluster is quiet. A third of the stall window is enough here: the run's
    // own settle follows with the whole window and decides what is stuck, so open work that
    // does not move costs the wait once, not twice.
    const settled = await waitForQuiescence(run.databaseUrl, {
      stallMs: stallWindowMs(run.cluster.config) / 3,
      maxMs: run.quick ? 120_000 : 600_000,
      log: run.log,
    });
    sampling = false;
    await sampler;
    return {
      restarts,
      longestDownMs: Math.round(downMs),
      busBackMs: Math.round(busBackMs),
      maxSilentRunningMs: Math.round(maxSilenceMs),
      drainedInScenario: settled.kind === "drained",
      ...tally,
    };
  },
};
