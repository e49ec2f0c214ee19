import type { THistoryRecord } from "../history/records";

export type NemesisRecord = Extract<THistoryRecord, { op: "nemesis" }>;
export type RunRecord = Extract<THistoryRecord, { op: "run" }>;

export function nemesisEvents(history: readonly THistoryRecord[], event: NemesisRecord["event"]) {
  return history.filter((r): r is NemesisRecord => r.op === "nemesis" && r.event === event);
}

/**
 * Episodes whose strategy began on `proc` before `at` and that `proc` had not finished (no
 * completed/failed telemetry from it) by then: what a fault at `at` caught mid-run.
 */
export function inFlightAt(
  history: readonly THistoryRecord[],
  proc: string,
  at: number,
): Set<string> {
  const started = new Set<string>();
  for (const r of history) {
    if (r.t >= at) break;
    if (r.proc !== proc) continue;
    if (r.op === "run") started.add(r.episodeId);
    if (r.op === "episode" && (r.event === "completed" || r.event === "failed")) {
      started.delete(r.episodeId);
    }
  }
  return started;
}

/** The first `run` of `episodeId` by another process than `proc` after `at`. */
export function nextRunElsewhere(
  history: readonly THistoryRecord[],
  episodeId: string,
  proc: string,
  at: number,
): RunRecord | undefined {
  return history.find(
    (r): r is RunRecord =>
      r.op === "run" && r.episodeId === episodeId && r.proc !== proc && r.t > at,
  );
}

/** `p50/max` of durations in ms, shown in seconds; `-` when there are none. */
export function spread(valuesMs: readonly number[]): string {
  if (valuesMs.length === 0) return "-";
  const sorted = [...valuesMs].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted.at(-1) ?? 0;
  return `${(p50 / 1000).toFixed(1)}s/${(max / 1000).toFixed(1)}s`;
}
