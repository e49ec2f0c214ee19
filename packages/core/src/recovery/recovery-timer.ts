import { silentLogger, type Logger } from "../telemetry/index";

export interface RecoveryTimerOptions {
  /** `CYCLIUM_RECOVERY_DELAY_MS`: lets a deploy settle, so a node that is only restarting is not swept. */
  delayMs: number;
  /** `CYCLIUM_RECOVERY_INTERVAL_MS`, measured from the end of one run to the start of the next. */
  intervalMs: number;
  run: () => Promise<void>;
  logger?: Logger | undefined;
}

export interface RecoveryTimer {
  /** Clears the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` once after `delayMs`, then every `intervalMs` after the previous run ended, so a
 * slow sweep never overlaps the next. A failed run is logged and the schedule goes on.
 */
export function startRecoveryTimer(options: RecoveryTimerOptions): RecoveryTimer {
  const logger = options.logger ?? silentLogger;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = options
        .run()
        .catch((error: unknown) => logger.error({ err: error }, "recovery run failed"))
        .finally(() => {
          current = undefined;
          schedule(options.intervalMs);
        });
    }, delayMs);
    timer.unref();
  };
  schedule(options.delayMs);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
