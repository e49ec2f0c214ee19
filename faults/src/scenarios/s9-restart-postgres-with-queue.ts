import { setTimeout as sleep } from "node:timers/promises";
import { burst, queuedOn, settleBurst } from "./queue-bursts";
import { awaitBusBack } from "./s4-restart-postgres";
import type { Scenario } from "./scenario";

/**
 * Scenario 9 (issue 18, point 2): bursts leave every worker holding a queue, then PostgreSQL is
 * stopped in immediate mode and started again after 1-3 s, no process killed. Workers whose
 * queued episodes fail to start while the server is down must not strand them: every
 * acknowledged fire ends as its policy allows and nothing is left pending without a live owner.
 */
export const restartPostgresWithQueue: Scenario = {
  id: 9,
  name: "postgres-restart-with-queue",
  async run(run) {
    const restarts = run.quick ? 1 : 3;
    let queuedAtRestarts = 0;
    let fired = 0;
    let events = 0;
    let longestDownMs = 0;
    for (let round = 1; round <= restarts && !run.signal.aborted; round += 1) {
      const b = burst(run, {
        prefix: `s9-r${round}`,
        perWorker: run.quick ? 16 : 24,
        events: run.quick ? 24 : 40,
      });
      await Promise.all(b.perWorker.values());
      const queued = (await queuedOn(run.databaseUrl, run.cluster.liveIdentities())) ?? 0;
      // 1-3 s down, as issue 18 measured; drawn here, the start adds its own seconds.
      const downMs = 1_000 + Math.round(Math.random() * 2_000);
      run.nemesis.write({ op: "nemesis", event: "pg-stop", queued });
      run.log(`postgres stopped (immediate) with ${queued} episodes queued; down ${downMs} ms`);
      const restart = await run.server.restartImmediately(downMs);
      run.nemesis.write({ op: "nemesis", event: "pg-start" });
      longestDownMs = Math.max(longestDownMs, restart.downForMs);
      queuedAtRestarts += queued;
      await awaitBusBack(run, `s9-${round}`);
      const answered = await settleBurst(b);
      fired += answered.fired;
      events += answered.events;
      if (round < restarts) await sleep(2_000);
    }
    return {
      restarts,
      queuedAtRestarts,
      longestDownMs: Math.round(longestDownMs),
      firedLocally: fired,
      events,
    };
  },
};
