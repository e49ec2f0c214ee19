import { setTimeout as sleep } from "node:timers/promises";
import { fireLoad } from "./fire-load";
import { procOf, sleepUnless } from "./nemesis";
import { burst, queuedOn, settleBurst, type Burst } from "./queue-bursts";
import { describeFault, planFaults, type PlannedFault } from "./random-faults";
import { awaitBusBack } from "./s4-restart-postgres";
import type { Scenario, ScenarioRun } from "./scenario";

async function apply(run: ScenarioRun, fault: PlannedFault, index: number): Promise<Burst | null> {
  const slot = run.cluster.workers[fault.worker % run.cluster.workers.length];
  if (slot === undefined) throw new Error(`no worker slot ${fault.worker}`);
  switch (fault.kind) {
    case "burst":
      return burst(run, { prefix: `s10-b${index}`, perWorker: 12, events: 16 });
    case "kill":
    case "kill-new-identity": {
      const queued = (await queuedOn(run.databaseUrl, [slot.identity])) ?? 0;
      const same = fault.kind === "kill";
      const replacement = same ? slot.identity : `${slot.identity}n${index}`;
      run.nemesis.write({
        op: "nemesis",
        event: "kill",
        target: procOf(slot),
        queued,
        ...(same ? {} : { replacement }),
      });
      if (same) await run.cluster.killAndRestart(slot);
      else await run.cluster.killAndReplace(slot, replacement);
      return null;
    }
    case "pause": {
      const proc = procOf(slot);
      run.nemesis.write({ op: "nemesis", event: "pause", target: proc });
      slot.child.signal("SIGSTOP");
      await sleep(fault.durationMs);
      run.nemesis.write({ op: "nemesis", event: "resume", target: proc });
      slot.child.signal("SIGCONT");
      return null;
    }
    case "terminate": {
      run.nemesis.write({ op: "nemesis", event: "terminate", target: procOf(slot) });
      const terminated = await run.server
        .terminateConnections(`faults-${slot.identity}`)
        .catch(() => 0);
      run.log(`terminated ${terminated} connection(s) of ${procOf(slot)}`);
      return null;
    }
    case "pg-restart": {
      run.nemesis.write({ op: "nemesis", event: "pg-stop" });
      await run.server.restartImmediately(fault.durationMs);
      run.nemesis.write({ op: "nemesis", event: "pg-start" });
      await awaitBusBack(run, `s10-${index}`);
      return null;
    }
  }
}

/**
 * Scenario 10: faults drawn at random from a seed (printed first, in the log and the nemesis
 * history; `--seed N` replays the same sequence): bursts that fill the workers' queues, SIGKILL
 * with a restart under the same or a new identity, SIGSTOP for one to three leases, PostgreSQL
 * restarted in immediate mode, a worker's connections terminated. A steady writer load runs
 * underneath. Whatever the mix: 0 lost, 0 duplicated, nothing stuck.
 */
export const randomMix: Scenario = {
  id: 10,
  name: "random-mix",
  async run(run) {
    const faults = planFaults(run.seed, {
      count: run.quick ? 6 : 60,
      workers: run.cluster.workers.length,
      leaseMs: run.cluster.config.leaseSeconds * 1000,
    });
    run.nemesis.write({ op: "nemesis", event: "seed", seed: run.seed });
    run.log(
      `seed ${run.seed} (replay: --seed ${run.seed}): ${faults.map(describeFault).join(", ")}`,
    );
    let firing = true;
    const load = fireLoad(run, {
      prefix: "s10",
      count: run.quick ? 150 : 1_500,
      ratePerSec: 10,
      input: { steps: 4, stepMs: 100 },
    }).finally(() => {
      firing = false;
    });
    const bursts: Burst[] = [];
    const applied = new Map<string, number>();
    for (const [index, fault] of faults.entries()) {
      if (await sleepUnless(fault.waitMs, () => run.signal.aborted)) break;
      run.log(`fault ${index + 1}/${faults.length}: ${describeFault(fault)}`);
      const started = await apply(run, fault, index);
      if (started) bursts.push(started);
      applied.set(fault.kind, (applied.get(fault.kind) ?? 0) + 1);
    }
    const tally = await load;
    let fired = 0;
    for (const b of bursts) fired += (await settleBurst(b)).fired;
    return {
      seed: run.seed,
      faults: faults.length,
      firingWhenFaultsEnded: firing,
      ...Object.fromEntries(applied),
      firedLocally: fired,
      ...tally,
    };
  },
};
