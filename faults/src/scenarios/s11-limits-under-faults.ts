import { setTimeout as sleep } from "node:timers/promises";
import { ACTORS } from "../cluster/fault-actors";
import { installLimitAudit } from "../history/limit-audit";
import { fireLoad } from "./fire-load";
import { procOf } from "./nemesis";
import { awaitBusBack } from "./s4-restart-postgres";
import type { Scenario } from "./scenario";

/**
 * Scenario 11 (SPEC section 16): a cluster-wide concurrency limit saturated while every episode
 * fails its first attempt (a retry is scheduled after its backoff), then `kill -9` of a worker,
 * a PostgreSQL restart in immediate mode, and another kill. Every fire must complete exactly once
 * (restart policy, retried), and no instant may see more episodes of the actor running than its
 * limit (checked from the workers' histories and from the database's own count at every start:
 * check-limits.ts, history/limit-audit.ts).
 */
export const limitsUnderFaults: Scenario = {
  id: 11,
  name: "limits-kill-restart",
  async run(run) {
    const count = run.quick ? 150 : 1_000;
    await installLimitAudit(run.databaseUrl, ACTORS.limited);
    let firing = true;
    const load = fireLoad(run, {
      prefix: "s11",
      count,
      ratePerSec: run.quick ? 30 : 60,
      actors: [ACTORS.limited],
      input: { steps: 3, stepMs: 40, failUntilAttempt: 1 },
    }).finally(() => {
      firing = false;
    });
    const faults: string[] = [];
    const restarts: Promise<void>[] = [];
    const kill = () => {
      const up = run.cluster.workers.filter((slot) => slot.child.ready);
      const slot = up[Math.floor(Math.random() * up.length)];
      if (slot === undefined) return;
      const proc = procOf(slot);
      run.nemesis.write({ op: "nemesis", event: "kill", target: proc });
      run.log(`kill -9 ${proc}`);
      faults.push("kill");
      restarts.push(run.cluster.killAndRestart(slot));
    };
    await sleep(2_500);
    kill();
    // The killed worker is back (under its identity) before the server goes down: a worker
    // starting against a stopped server exits, which is not this scenario's fault.
    await Promise.all(restarts);
    await sleep(1_000);
    run.nemesis.write({ op: "nemesis", event: "pg-stop" });
    run.log("postgres stopped (immediate)");
    await run.server.restartImmediately(1_500);
    run.nemesis.write({ op: "nemesis", event: "pg-start" });
    faults.push("pg-restart");
    await awaitBusBack(run, "s11");
    if (firing) kill();
    const tally = await load;
    await Promise.all(restarts);
    return { fires: count, faults: faults.join(","), actor: ACTORS.limited, ...tally };
  },
};
