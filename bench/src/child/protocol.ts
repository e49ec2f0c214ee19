/**
 * Messages between the bench (parent) and its worker processes, over Node's IPC channel. Plain
 * JSON objects; each side checks the `type` before trusting the rest.
 */
import type { SystemId } from "../systems/system-id";

/** What a worker process is asked to do, passed as its single argv argument (JSON). */
export type WorkerRole =
  | {
      kind: "consume";
      system: SystemId;
      url: string;
      /** Handlers running at once in this process (graphile concurrentJobs, our actor slots). */
      concurrency: number;
      /** Report every execution at once (latency), or only counts every 50 ms (drain). */
      reportEach: boolean;
      label: string;
    }
  | { kind: "calibrate"; url: string; clients: number; firstRow: number; seconds: number };

export type ParentMessage = { type: "go" } | { type: "stop" };

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
  | { type: "failed"; message: string };

export function isChildMessage(value: unknown): value is ChildMessage {
  return typeof value === "object" && value !== null && "type" in value;
}

export function isParentMessage(value: unknown): value is ParentMessage {
  return (
    typeof value === "object" &&
    value !== null &&
    "type" in value &&
    (value.type === "go" || value.type === "stop")
  );
}

/** Epoch milliseconds with sub-millisecond precision, comparable across processes. */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
