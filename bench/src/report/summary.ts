import type { BenchConfig } from "../config";
import type { ItemCosts } from "../costs/item-costs";
import { medianCosts } from "../costs/median-costs";
import type { CalibrationRun } from "../scenarios/calibration";
import type { DrainRun } from "../scenarios/drain";
import type { LatencyRun } from "../scenarios/latency";
import { median, percentile } from "../stats";
import type { BenchSystem } from "../systems/system";
import type { SystemId } from "../systems/system-id";

export interface RunInfo {
  command: string;
  startedAt: string;
  finishedAt: string;
  node: string;
  cpus: number;
  /** os.loadavg() (1, 5, 15 min) before and after the run. */
  loadBefore: number[];
  loadAfter: number[];
  database: "embedded" | "DATABASE_URL";
  postgres: Record<string, string>;
}

export interface DrainFigure {
  system: SystemId;
  processes: number;
  windowed: boolean;
  itemsPerSecond: number;
  seconds: number;
  /** itemsPerSecond / the UPDATE ceiling with the same processes and clients per handler slot. */
  fractionOfCeiling: number;
  commitsPerItem: number;
  walBytesPerItem: number;
  queriesPerItem: number;
  workerCpuMsPerItem: number;
  postgresCpuMsPerItem: number | null;
  /** Per-item costs, medians over repetitions (null in a JSON written before they existed). */
  costs: ItemCosts | null;
}

export interface LatencyFigure {
  system: SystemId;
  samplesPerRepetition: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface CalibrationFigure {
  processes: number;
  clientsPerProcess: number;
  updatesPerSecond: number;
  walBytesPerUpdate: number;
}

/** ours / theirs: above 1 means we drain faster; for latency, below 1 means we start sooner. */
export interface Ratios {
  against: SystemId;
  drain: { processes: number; throughput: number }[];
  latencyP50: number;
  latencyP99: number;
}

export interface Summary {
  info: RunInfo;
  config: BenchConfig;
  systems: { id: SystemId; label: string; settings: string }[];
  /** What the per-item costs could not measure on this server, and how they degraded. */
  costNotes?: string[];
  calibration: CalibrationFigure[];
  drain: DrainFigure[];
  latency: LatencyFigure[];
  ratios: Ratios[];
  problems: string[];
  runs: { calibration: CalibrationRun[]; drain: DrainRun[]; latency: LatencyRun[] };
}

/** Medians over repetitions of every figure, and the ratios of ours to each other system. */
export function summarize(
  info: RunInfo,
  config: BenchConfig,
  systems: readonly BenchSystem[],
  runs: Summary["runs"],
  costNotes: string[] = [],
): Summary {
  const calibration = groupBy(runs.calibration, (r) => `${r.processes}/${r.clientsPerProcess}`).map(
    (group): CalibrationFigure => ({
      processes: first(group).processes,
      clientsPerProcess: first(group).clientsPerProcess,
      updatesPerSecond: median(group.map((r) => r.updatesPerSecond)),
      walBytesPerUpdate: median(group.map((r) => r.walBytesPerUpdate)),
    }),
  );
  const ceiling = (processes: number) =>
    calibration.find((c) => c.processes === processes && c.clientsPerProcess === config.concurrency)
      ?.updatesPerSecond ?? Number.NaN;
  const drain = groupBy(runs.drain, (r) => `${r.system}/${r.processes}`).map(
    (group): DrainFigure => {
      const m = (pick: (r: DrainRun) => number) => median(group.map(pick));
      const itemsPerSecond = m((r) => r.itemsPerSecond);
      const postgres = group.map((r) => r.postgresCpuMsPerItem);
      return {
        system: first(group).system,
        processes: first(group).processes,
        windowed: first(group).windowed,
        itemsPerSecond,
        seconds: m((r) => r.seconds),
        fractionOfCeiling: itemsPerSecond / ceiling(first(group).processes),
        commitsPerItem: m((r) => r.commitsPerItem),
        walBytesPerItem: m((r) => r.walBytesPerItem),
        queriesPerItem: m((r) => r.queriesPerItem),
        workerCpuMsPerItem: m((r) => r.workerCpuMsPerItem),
        postgresCpuMsPerItem: postgres.every((v) => v !== null) ? median(postgres) : null,
        costs: medianCosts(group.flatMap((r) => (r.costs === undefined ? [] : [r.costs]))),
      };
    },
  );
  const latency = groupBy(runs.latency, (r) => r.system).map((group): LatencyFigure => {
    const m = (p: number) => median(group.map((r) => percentile(r.samples, p)));
    return {
      system: first(group).system,
      samplesPerRepetition: first(group).samples.length,
      p50: m(50),
      p95: m(95),
      p99: m(99),
      max: Math.max(...group.flatMap((r) => r.samples)),
    };
  });
  const problems = [...runs.drain, ...runs.latency].flatMap((run) =>
    run.problems.map((problem) => `${run.system} (${describe(run)}): ${problem}`),
  );
  return {
    info,
    config,
    systems: systems.map(({ id, label, settings }) => ({ id, label, settings })),
    costNotes,
    calibration,
    drain,
    latency,
    ratios: ratiosOf(drain, latency, config),
    problems,
    runs,
  };
}

function ratiosOf(drain: DrainFigure[], latency: LatencyFigure[], config: BenchConfig): Ratios[] {
  const ours = (system: SystemId) => system === "cyclium";
  const others = [...new Set([...drain, ...latency].map((f) => f.system))].filter((s) => !ours(s));
  const throughput = (system: SystemId, processes: number) =>
    drain.find((f) => f.system === system && f.processes === processes)?.itemsPerSecond ??
    Number.NaN;
  const lat = (system: SystemId) => latency.find((f) => f.system === system);
  return others.map((against) => ({
    against,
    drain: config.processes.map((processes) => ({
      processes,
      throughput: throughput("cyclium", processes) / throughput(against, processes),
    })),
    latencyP50: (lat("cyclium")?.p50 ?? Number.NaN) / (lat(against)?.p50 ?? Number.NaN),
    latencyP99: (lat("cyclium")?.p99 ?? Number.NaN) / (lat(against)?.p99 ?? Number.NaN),
  }));
}

function describe(run: DrainRun | LatencyRun): string {
  return "processes" in run
    ? `drain, ${run.processes} process(es), repetition ${run.repetition}`
    : `latency, repetition ${run.repetition}`;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return [...groups.values()];
}

function first<T>(group: readonly T[]): T {
  const item = group[0];
  if (item === undefined) throw new Error("empty group");
  return item;
}
