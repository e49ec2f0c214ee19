import { burst, queuedOn, settleBurst } from "./queue-bursts";
import { procOf } from "./nemesis";
import type { Scenario } from "./scenario";

/**
 * Scenario 8 (issue 18, point 1): bursts leave every worker holding a queue of episodes of the
 * one- and two-slot actors, then the worker holding the most is SIGKILLed. It comes back under
 * its own identity in odd rounds (a restarted pod) and under a new one in even rounds (a pod
 * rescheduled elsewhere: nothing of the old identity returns). Every acknowledged fire must end
 * as its policy allows and nothing may be left pending without a live owner.
 */
export const killWithQueue: Scenario = {
  id: 8,
  name: "kill-with-queue",
  async run(run) {
    const rounds = run.quick ? 2 : 6;
    let queuedAtKills = 0;
    let fired = 0;
    let events = 0;
    let replaced = 0;
    for (let round = 1; round <= rounds && !run.signal.aborted; round += 1) {
      const b = burst(run, {
        prefix: `s8-r${round}`,
        perWorker: run.quick ? 16 : 24,
        events: run.quick ? 24 : 40,
      });
      // The victim: the worker of this round, killed as soon as its own burst is queued.
      const slot = run.cluster.workers[(round - 1) % run.cluster.workers.length];
      if (slot === undefined) throw new Error("no worker to kill");
      await b.perWorker.get(slot);
      const queued = (await queuedOn(run.databaseUrl, [slot.identity])) ?? 0;
      const sameIdentity = round % 2 === 1;
      const replacement = sameIdentity ? slot.identity : `${slot.identity}n${round}`;
      run.nemesis.write({
        op: "nemesis",
        event: "kill",
        target: procOf(slot),
        queued,
        ...(sameIdentity ? {} : { replacement }),
      });
      run.log(
        `kill -9 ${procOf(slot)} holding ${queued} queued; back as ${replacement}${sameIdentity ? " (same identity)" : " (new identity)"}`,
      );
      queuedAtKills += queued;
      if (sameIdentity) await run.cluster.killAndRestart(slot);
      else {
        await run.cluster.killAndReplace(slot, replacement);
        replaced += 1;
      }
      const answered = await settleBurst(b);
      fired += answered.fired;
      events += answered.events;
    }
    return { rounds, kills: rounds, replaced, queuedAtKills, firedLocally: fired, events };
  },
};
