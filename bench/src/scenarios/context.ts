import { WorkerProcess } from "../child/worker-process";
import type { BenchConfig } from "../config";
import type { PostgresCpu } from "../pg/postgres-cpu";
import type { Server } from "../pg/server";
import type { BenchSystem } from "../systems/system";

/** What every scenario runs against. */
export interface BenchContext {
  server: Server;
  config: BenchConfig;
  /** Name prefix of every database this run creates (dropped at the end). */
  prefix: string;
  /** Null when the server is not on this machine. */
  postgresCpu: PostgresCpu | null;
}

export function templateName(context: BenchContext, system: BenchSystem): string {
  return `${context.prefix}_${system.id.replaceAll("-", "_")}_tpl`;
}

/** A fresh database for one measurement, cloned from the system's installed template. */
export async function freshDatabase(
  context: BenchContext,
  system: BenchSystem,
  suffix: string,
): Promise<{ name: string; url: string }> {
  const name = `${context.prefix}_${system.id.replaceAll("-", "_")}_${suffix}`;
  const url = await context.server.createDatabase(name, templateName(context, system));
  return { name, url };
}

/** Starts `count` consumer processes of `system` and waits until all are ready. */
export async function spawnConsumers(
  context: BenchContext,
  system: BenchSystem,
  url: string,
  count: number,
  reportEach: boolean,
): Promise<WorkerProcess[]> {
  const workers = Array.from(
    { length: count },
    (_, index) =>
      new WorkerProcess({
        kind: "consume",
        system: system.id,
        url,
        concurrency: context.config.concurrency,
        reportEach,
        label: `${system.id}-${index + 1}of${count}`,
      }),
  );
  try {
    await Promise.all(workers.map((worker) => worker.next("ready")));
  } catch (error) {
    for (const worker of workers) worker.kill();
    throw error;
  }
  return workers;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
