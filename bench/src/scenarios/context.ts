import { WorkerProcess } from "../child/worker-process";
import type { BenchConfig } from "../config";
import type { CostProbes } from "../costs/cost-probes";
import type { PostgresCpu } from "../pg/postgres-cpu";
import type { Server } from "../pg/server";
import type { BenchSystem } from "../systems/system";
import { isSystemId, type BuiltinSystemId, type SystemId } from "../systems/system-id";

/** What every scenario runs against. */
export interface BenchContext {
  server: Server;
  config: BenchConfig;
  /** Name prefix of every database this run creates (dropped at the end). */
  prefix: string;
  /** Null when the server is not on this machine. */
  postgresCpu: PostgresCpu | null;
  /** The extensions behind the per-item costs; null when not enabled (the figures degrade). */
  probes: CostProbes | null;
}

/** The system id as a database name part (`cyclium@c47b504` → `cyclium_c47b504`). */
export function databasePart(system: BenchSystem): string {
  return system.id.replaceAll(/[^a-z0-9_]/gi, "_");
}

export function templateName(context: BenchContext, system: BenchSystem): string {
  return `${context.prefix}_${databasePart(system)}_tpl`;
}

/** A fresh database for one measurement, cloned from the system's installed template. */
export async function freshDatabase(
  context: BenchContext,
  system: BenchSystem,
  suffix: string,
): Promise<{ name: string; url: string }> {
  const name = `${context.prefix}_${databasePart(system)}_${suffix}`;
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
      new WorkerProcess(
        {
          kind: "consume",
          system: system.child?.system ?? builtin(system.id),
          url,
          concurrency: context.config.concurrency,
          reportEach,
          label: `${databasePart(system)}-${index + 1}of${count}`,
        },
        system.child?.entry,
      ),
  );
  try {
    await Promise.all(workers.map((worker) => worker.next("ready")));
  } catch (error) {
    for (const worker of workers) worker.kill();
    throw error;
  }
  return workers;
}

function builtin(id: SystemId): BuiltinSystemId {
  if (!isSystemId(id)) throw new Error(`${id} runs in another checkout but names no child entry`);
  return id;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
