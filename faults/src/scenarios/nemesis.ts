import { setTimeout as sleep } from "node:timers/promises";
import type { WorkerSlot } from "../cluster/cluster";
import type { ScenarioRun } from "./scenario";

/** `w2#1234`: the identity and pid a history names a process by. */
export function procOf(slot: WorkerSlot): string {
  return `${slot.identity}#${slot.child.pid}`;
}

/** Sleeps `ms`, waking early once `stop()` says so; true when woken early. */
export async function sleepUnless(ms: number, stop: () => boolean): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (stop()) return true;
    await sleep(Math.min(100, until - performance.now()));
  }
  return stop();
}

/**
 * Until `done()`: every `minMs`–`maxMs`, SIGKILL a random worker that is up and start it again
 * under the same identity in the background, so kills keep their cadence while a killed worker
 * boots (a few seconds on a loaded machine). Each kill is in the nemesis log with the pid it
 * killed. Resolves once every restarted worker is ready again.
 */
export async function killRandomWorkers(
  run: ScenarioRun,
  options: { minMs: number; maxMs: number; done: () => boolean },
): Promise<number> {
  const restarts: Promise<void>[] = [];
  for (;;) {
    const wait = options.minMs + Math.random() * (options.maxMs - options.minMs);
    if (await sleepUnless(wait, options.done)) break;
    const up = run.cluster.workers.filter((slot) => slot.child.ready);
    const slot = up[Math.floor(Math.random() * up.length)];
    if (slot === undefined) continue;
    run.nemesis.write({ op: "nemesis", event: "kill", target: procOf(slot) });
    run.log(`kill -9 ${procOf(slot)}`);
    restarts.push(run.cluster.killAndRestart(slot));
  }
  await Promise.all(restarts);
  return restarts.length;
}
