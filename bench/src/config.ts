import { parseArgs } from "node:util";
import type { ScaleConfig } from "./scale/scale-config";
import {
  DEFAULT_SYSTEM_IDS,
  isSystemId,
  QUICK_SYSTEM_IDS,
  SYSTEM_IDS,
  type BuiltinSystemId,
} from "./systems/system-id";

export interface BenchConfig {
  quick: boolean;
  /** Items pre-inserted per drain. */
  items: number;
  /** Repetitions of every figure; the report gives medians. */
  repetitions: number;
  /** Worker process counts of the drain. */
  processes: number[];
  /** Handlers running at once per worker process. */
  concurrency: number;
  latencySamples: number;
  /** Latency samples of a `slow` system (one that polls every 2 s: ~1 s per sample). */
  slowLatencySamples: number;
  /** Drain window of a `slow` system, ms. */
  slowWindowMs: number;
  calibrationSeconds: number;
  systems: BuiltinSystemId[];
  /**
   * `--baseline <git ref>`: cyclium at that commit, run from a worktree of its own
   * (.data/bench-baseline/<sha>) and interleaved with the current one (baseline/).
   */
  baseline?: string;
  /** `--render file.json`: print the markdown of an earlier run's JSON instead of measuring. */
  render?: string;
  /** `--burst`: the burst scenario alone instead of the comparison (see burst/run-burst.ts). */
  burst?: BurstConfig;
  /** `--history N`: issue 16's history benchmark instead (history/run-history.ts). */
  history?: number;
  /** `--scale [--scale-sizes 1,4,8,16]`: the cluster-scale run instead (scale/run-scale.ts). */
  scale?: ScaleConfig;
}

export interface BurstConfig {
  /** `--burst-size`: events in the burst, default 100,000. */
  size: number;
  /** The actor's maxConcurrentEpisodes (2, as issue 18 fixes it). */
  slots: number;
  /** `--burst-via bus` (default: published as bus events) or `host` (fired in the worker). */
  via: "bus" | "host";
  /** `--burst-deadline`: seconds before the run is given up, default 60 + 20 ms per event. */
  deadlineSeconds: number;
  /** `--burst-snapshot-at S`: the worker writes a V8 heap snapshot S seconds after the burst. */
  snapshotAtSeconds?: number;
}

/**
 * Full run: 20,000 items, 1 and 2 worker processes, 3 repetitions, 500 latency samples.
 * `--quick` (CI smoke test): 500 items, 2 processes, 1 repetition, 50 samples; it asserts nothing
 * about speed, only that every item completed exactly once in every system (exit code 1 if not).
 * `--burst [--burst-size N] [--burst-via bus|host] [--burst-deadline S] [--burst-snapshot-at S]`:
 * the burst scenario
 * alone (never part of `--quick`).
 * `--history N [--items N] [--samples N] [--reps N]`: issue 16's history benchmark alone, cyclium
 * only: drain, latency, sweep and console list on an empty database and with N finished episodes.
 * `--scale [--scale-sizes 1,4,8,16] [--items N]`: the cluster-scale run alone (scale/run-scale.ts):
 * real workers idle, a NOTIFY probe, a drain of N items (default 5,000) and a sweep of 1,000
 * orphans at each size.
 */
export function parseConfig(argv: string[]): BenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      items: { type: "string" },
      reps: { type: "string" },
      processes: { type: "string" },
      concurrency: { type: "string" },
      samples: { type: "string" },
      systems: { type: "string" },
      render: { type: "string" },
      burst: { type: "boolean", default: false },
      "burst-size": { type: "string" },
      "burst-via": { type: "string" },
      "burst-deadline": { type: "string" },
      "burst-snapshot-at": { type: "string" },
      history: { type: "string" },
      baseline: { type: "string" },
      scale: { type: "boolean", default: false },
      "scale-sizes": { type: "string" },
    },
    strict: true,
  });
  const quick = values.quick;
  const systems = (values.systems ?? (quick ? QUICK_SYSTEM_IDS : DEFAULT_SYSTEM_IDS).join(","))
    .split(",")
    .map((s) => s.trim());
  const unknown = systems.filter((s) => !isSystemId(s));
  if (unknown.length > 0) {
    throw new Error(`unknown system(s) ${unknown.join(", ")}; known: ${SYSTEM_IDS.join(", ")}`);
  }
  return {
    quick,
    items: positive("items", values.items, quick ? 500 : 20_000),
    repetitions: positive("reps", values.reps, quick ? 1 : 3),
    // Quick runs two processes only: that is where exactly-once can fail, and CI time is short.
    processes: (values.processes ?? (quick ? "2" : "1,2"))
      .split(",")
      .map((p) => positive("processes", p, 1)),
    concurrency: positive("concurrency", values.concurrency, 24),
    latencySamples: positive("samples", values.samples, quick ? 50 : 500),
    slowLatencySamples: quick ? 4 : 30,
    slowWindowMs: quick ? 3_000 : 20_000,
    calibrationSeconds: quick ? 0.5 : 5,
    systems: systems.filter(isSystemId),
    ...(values.render === undefined ? {} : { render: values.render }),
    ...(values.burst ? { burst: burstConfig(values) } : {}),
    ...(values.history === undefined ? {} : { history: positive("history", values.history, 1) }),
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    ...(values.scale
      ? {
          scale: {
            sizes: (values["scale-sizes"] ?? "1,4,8,16")
              .split(",")
              .map((n) => positive("scale-sizes", n, 1)),
            idleSeconds: 30,
            probes: 50,
            drainItems: positive("items", values.items, 5_000),
            orphans: 1_000,
          },
        }
      : {}),
  };
}

function burstConfig(values: {
  "burst-size"?: string;
  "burst-via"?: string;
  "burst-deadline"?: string;
  "burst-snapshot-at"?: string;
}): BurstConfig {
  const size = positive("burst-size", values["burst-size"], 100_000);
  const via = values["burst-via"] ?? "bus";
  if (via !== "bus" && via !== "host") throw new Error("--burst-via must be bus or host");
  return {
    size,
    slots: 2,
    via,
    deadlineSeconds: positive(
      "burst-deadline",
      values["burst-deadline"],
      60 + Math.ceil(size / 50),
    ),
    ...(values["burst-snapshot-at"] === undefined
      ? {}
      : { snapshotAtSeconds: positive("burst-snapshot-at", values["burst-snapshot-at"], 0) }),
  };
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}
