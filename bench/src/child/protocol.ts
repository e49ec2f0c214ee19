/**
 * Messages between the bench (parent) and its worker processes, over Node's IPC channel. Plain
 * JSON objects; each side checks the `type` before trusting the rest.
 */
import type { BuiltinSystemId } from "../systems/system-id";

/** What a worker process is asked to do, passed as its single argv argument (JSON). */
export type WorkerRole =
  | {
      kind: "consume";
      /**
       * Unchanged since c47b504: `--baseline` sends this role to that commit's child, so new
       * fields must be optional there and old ones kept.
       */
      system: BuiltinSystemId;
      url: string;
      /** Handlers running at once in this process (graphile concurrentJobs, our actor slots). */
      concurrency: number;
      /** Report every execution at once (latency), or only counts every 50 ms (drain). */
      reportEach: boolean;
      label: string;
    }
  | { kind: "calibrate"; url: string; clients: number; firstRow: number; seconds: number }
  | BurstRole
  | ScaleRole;

/** `pnpm bench --scale`: one real worker (runWorker) of the scale deployment (scale/). */
export interface ScaleRole {
  kind: "scale";
  url: string;
  /** Its node identity. */
  label: string;
  /** Hosts the orphan actor with 1,000 slots and hangs in its step, to be killed (SIGKILL). */
  victim: boolean;
}

/** `pnpm bench --burst`: one full-mode node hosting one actor, fed a burst of events. */
export interface BurstRole {
  kind: "burst";
  url: string;
  label: string;
  /** Events of the burst (item numbers 0 .. size - 1). */
  size: number;
  /** The actor's maxConcurrentEpisodes. */
  slots: number;
  /** `bus`: the parent publishes; `host`: this process fires through its ActorHost on `go`. */
  via: "bus" | "host";
  /** Seconds after `go` at which to write a V8 heap snapshot (to the OS temp directory). */
  snapshotAtSeconds?: number;
}

export type ParentMessage = { type: "go" } | { type: "stop" } | { type: "sweep" };

/** What a burst worker reports every 250 ms (and once more when stopped). */
export interface BurstProgress {
  /** process.memoryUsage(), bytes. */
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Burst events the node's bus delivered to this process. */
  received: number;
  /** Fires this process made itself (`via: host`), resolved. */
  fired: number;
  /** Strategy inits (episodes started) and steps, over all items. */
  started: number;
  stepped: number;
  /** `cyclium.episode.completed` / `failed` telemetry events. */
  completed: number;
  failed: number;
  /** The actor's queue: in memory and in the table (host.queuedCount), and running. */
  queued: number;
  running: number;
}

/** Per-item counters of a burst worker, summed: each item's strategy must run exactly once. */
export interface BurstTally {
  /** Items whose init ran once, more than once, never. */
  once: number;
  more: number;
  never: number;
  /** Items whose single step ran more than once. */
  steppedMore: number;
  /** The first few items run more than once or never, for the report. */
  examples: { item: number; runs: number }[];
}

export interface WorkerUsage {
  /** Queries sent by every pg client of the process (round trips, pipelining aside). */
  queries: number;
  /** process.cpuUsage() user + system since `go`, in ms. */
  cpuMs: number;
}

export type ChildMessage =
  | { type: "ready" }
  | { type: "progress"; executed: number }
  /** `at`: epoch ms with sub-ms precision (performance.timeOrigin + performance.now()). */
  | { type: "started"; item: number; at: number }
  | { type: "stopped"; executed: number[]; usage: WorkerUsage }
  | { type: "calibrated"; updates: number; seconds: number; usage: WorkerUsage }
  | { type: "burstReady"; pid: number; progress: BurstProgress }
  | { type: "burstProgress"; progress: BurstProgress }
  | { type: "burstFired"; ms: number }
  | { type: "burstStopped"; progress: BurstProgress; tally: BurstTally; usage: WorkerUsage }
  | ScaleProgress
  | (Omit<ScaleProgress, "type"> & {
      type: "scaleStopped";
      executedItems: number[];
      recoveredItems: number[];
    })
  | { type: "swept"; found: number; claimed: number; restarted: number; ms: number }
  | { type: "failed"; message: string };

/** What a scale worker reports every 100 ms: counts since it started. */
export interface ScaleProgress {
  type: "scaleProgress";
  /** bench_actor episodes run (drain items and NOTIFY probe fires). */
  executed: number;
  /** Orphan steps entered and left hanging (the victim). */
  hung: number;
  /** Orphans run to their end after recovery. */
  recovered: number;
  /** LISTEN notifications its pg clients received. */
  notifications: number;
}

export function isChildMessage(value: unknown): value is ChildMessage {
  return typeof value === "object" && value !== null && "type" in value;
}

export function isParentMessage(value: unknown): value is ParentMessage {
  return (
    typeof value === "object" &&
    value !== null &&
    "type" in value &&
    (value.type === "go" || value.type === "stop" || value.type === "sweep")
  );
}

/** Epoch milliseconds with sub-millisecond precision, comparable across processes. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
