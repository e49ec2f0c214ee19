import type { WorkerProcess } from "../child/worker-process";
import { preciseNow } from "../child/protocol";
import type { BenchSystem, Firer } from "../systems/system";
import { checkExecuted } from "./check-executed";
import { freshDatabase, sleep, spawnConsumers, type BenchContext } from "./context";

export interface LatencyRun {
  system: BenchSystem["id"];
  repetition: number;
  /** Fire commit → handler start, ms, in firing order. */
  samples: number[];
  problems: string[];
}

/** Fires before measuring: connections, prepared statements and JIT warm up. */
const WARM_UP = 5;
/** pg-boss's default pollingIntervalSeconds. */
const SLOW_POLL_MS = 2_000;
/** A fire that has not started after this long is lost. */
const SAMPLE_TIMEOUT_MS = 30_000;

/**
 * Idle latency: one worker process with nothing to do; items are fired one at a time from this
 * process (as an application would: graphile addJob, pg-boss send, our deferred runner), each
 * after a random 20-50 ms pause so the worker is idle again. A `slow` system's pause is spread
 * over its 2 s poll interval instead: its worker sleeps 2 s after every job, so fires 20-50 ms
 * apart would all wait the full interval rather than the ~1 s an arbitrary moment waits. A sample runs from the moment the fire's commit is acknowledged here to the
 * moment the handler starts in the worker (both clocks are this machine's).
 */
export async function runLatency(
  context: BenchContext,
  system: BenchSystem,
  repetition: number,
): Promise<LatencyRun> {
  const count = system.slow ? context.config.slowLatencySamples : context.config.latencySamples;
  const database = await freshDatabase(context, system, `latency_r${repetition}`);
  let workers: WorkerProcess[] = [];
  let firer: Firer | undefined;
  try {
    workers = await spawnConsumers(context, system, database.url, 1, true);
    const worker = workers[0];
    if (worker === undefined) throw new Error("no latency worker");
    const startedAt = new Map<number, number>();
    const waiting = new Map<number, (at: number) => void>();
    worker.onStarted((item, at) => {
      const resolve = waiting.get(item);
      waiting.delete(item);
      if (resolve === undefined) startedAt.set(item, at);
      else resolve(at);
    });
    const whenStarted = (item: number): Promise<number> => {
      const at = startedAt.get(item);
      if (at !== undefined) return Promise.resolve(at);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${system.id}: item ${item} did not start within 30 s`)),
          SAMPLE_TIMEOUT_MS,
        );
        waiting.set(item, (started) => {
          clearTimeout(timer);
          resolve(started);
        });
      });
    };

    firer = await system.createFirer(database.url);
    worker.send({ type: "go" });
    await sleep(500);
    const samples: number[] = [];
    for (let item = 0; item < WARM_UP + count; item += 1) {
      await sleep(20 + Math.random() * (system.slow ? SLOW_POLL_MS : 30));
      const started = whenStarted(item);
      await firer.fire(item);
      const committed = preciseNow();
      const at = await started;
      if (item >= WARM_UP) samples.push(at - committed);
    }
    await firer.close();
    firer = undefined;
    const stopped = await worker.stop();
    workers = [];
    return {
      system: system.id,
      repetition,
      samples,
      problems: checkExecuted(stopped.executed, WARM_UP + count),
    };
  } finally {
    await firer?.close().catch(() => undefined);
    for (const worker of workers) worker.kill();
    await context.server.dropDatabase(database.name);
  }
}
