import { startRepeatAfterRun, type RepeatingRun } from "../timers/index";
import {
  sweepExpiredClaims,
  type SweepExpiredClaimsOptions,
  type SweepExpiredClaimsResult,
} from "./sweep-expired-claims";

/**
 * `CYCLIUM_WORK_CLAIMS_RECLAIM_INTERVAL_MS` default: a lapsed claim shows as `expired` within a
 * minute of its lease running out, for one indexed statement per minute per cluster.
 */
export const DEFAULT_RECLAIM_INTERVAL_MS = 60_000;

export interface ClaimsExpiryTimerOptions extends SweepExpiredClaimsOptions {
  /** Between the end of one sweep and the start of the next. */
  intervalMs?: number;
  /** Before the first sweep (default: one interval, so a deploy's restarts settle first). */
  delayMs?: number;
  /** Called after every sweep, for tests and logs. */
  onSwept?: (result: SweepExpiredClaimsResult) => void;
}

export type ClaimsExpiryTimer = RepeatingRun;

/**
 * Runs the expiry sweep on a schedule. Every node may run it; the sweep's work claim lets one
 * sweep at a time, and a node that finds it busy waits for its next turn. The next sweep is
 * timed from the end of the previous one, so a slow sweep never overlaps the next; a failed one
 * (database down) is logged and the schedule goes on.
 */
export function startClaimsExpiryTimer(options: ClaimsExpiryTimerOptions): ClaimsExpiryTimer {
  const intervalMs = options.intervalMs ?? DEFAULT_RECLAIM_INTERVAL_MS;
  return startRepeatAfterRun({
    delayMs: options.delayMs ?? intervalMs,
    intervalMs,
    run: async () => {
      const result = await sweepExpiredClaims(options);
      options.onSwept?.(result);
    },
    onFailed: (error) => options.logger.warn({ err: error }, "claims expiry sweep failed"),
  });
}
