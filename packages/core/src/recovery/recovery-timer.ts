import { startRepeatAfterRun, type RepeatingRun } from "../timers/index";
import { silentLogger, type Logger } from "../telemetry/index";

export interface RecoveryTimerOptions {
  /** `CYCLIUM_RECOVERY_DELAY_MS`: lets a deploy settle, so a node that is only restarting is not swept. */
  delayMs: number;
  /** `CYCLIUM_RECOVERY_INTERVAL_MS`, measured from the end of one run to the start of the next. */
  intervalMs: number;
  run: () => Promise<void>;
  logger?: Logger | undefined;
}

export type RecoveryTimer = RepeatingRun;

/**
 * Runs `run` once after `delayMs`, then every `intervalMs` after the previous run ended, so a
 * slow sweep never overlaps the next. A failed run is logged and the schedule goes on.
 */
export function startRecoveryTimer(options: RecoveryTimerOptions): RecoveryTimer {
  const logger = options.logger ?? silentLogger;
  return startRepeatAfterRun({
    delayMs: options.delayMs,
    intervalMs: options.intervalMs,
    run: options.run,
    onFailed: (error) => logger.error({ err: error }, "recovery run failed"),
  });
}
