import { jitteredDelay } from "./jittered-interval";

export interface RepeatAfterRunOptions {
  /** Before the first run. */
  delayMs: number;
  /** Between the end of one run and the start of the next, give or take 10 % (jittered-interval.ts). */
  intervalMs: number;
  /** Answers `"again"` when work is left over: the next run then starts after `againMs`. */
  run: () => Promise<void | "again">;
  /** The wait after a run that answered `"again"` (default 1 s). */
  againMs?: number;
  /** A failed run (database down) is handed here and the schedule goes on. */
  onFailed: (error: unknown) => void;
}

export interface RepeatingRun {
  /** Clears the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` once after `delayMs`, then every `intervalMs` after the previous run ended, so a
 * slow run never overlaps the next; a run that answers `"again"` is followed after `againMs`. The timer is unref'd: it never keeps a process alive.
 */
export function startRepeatAfterRun(options: RepeatAfterRunOptions): RepeatingRun {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let stopped = false;

  const schedule = (delayMs: number): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = options
        .run()
        .catch((error: unknown) => options.onFailed(error))
        .then((answer) => {
          current = undefined;
          schedule(
            answer === "again" ? (options.againMs ?? 1_000) : jitteredDelay(options.intervalMs),
          );
        });
    }, delayMs);
    timer.unref();
  };
  schedule(options.delayMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
