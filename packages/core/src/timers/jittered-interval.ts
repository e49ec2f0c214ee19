/**
 * Every wait is drawn from [0.9, 1.1] x the interval. The timers of a node start within the same
 * millisecond, and several share a period (heartbeat and poller, 5 s): firing together, their
 * statements took a second pooled connection that then never sat idle long enough to close, an
 * idle worker's 4 backends instead of 2 (issue 28). Drawn waits also spread many nodes' rounds.
 */
const SPREAD = 0.1;

export function jitteredDelay(intervalMs: number): number {
  return Math.round(intervalMs * (1 - SPREAD + Math.random() * 2 * SPREAD));
}

export interface JitteredInterval {
  stop(): void;
}

/**
 * `setInterval` with a drawn wait before every tick (see SPREAD); unref'd, so it never keeps a
 * process alive. `tick` is not awaited: callers keep their own guard against overlap.
 */
export function startJitteredInterval(tick: () => void, intervalMs: number): JitteredInterval {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      arm();
      tick();
    }, jitteredDelay(intervalMs));
    timer.unref();
  };
  arm();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
