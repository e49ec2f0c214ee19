const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A compact, human duration for tables ("4 s", "12 min", "3 h 5 min", "2 d 4 h"). Two units at
 * most: an operator scanning heartbeats cares about orders of magnitude, not exact seconds.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < SECOND) return "< 1 s";
  if (ms < MINUTE) return `${Math.floor(ms / SECOND)} s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) {
    const minutes = Math.floor((ms % HOUR) / MINUTE);
    return minutes > 0 ? `${Math.floor(ms / HOUR)} h ${minutes} min` : `${Math.floor(ms / HOUR)} h`;
  }
  const hours = Math.floor((ms % DAY) / HOUR);
  return hours > 0 ? `${Math.floor(ms / DAY)} d ${hours} h` : `${Math.floor(ms / DAY)} d`;
}

/** A latency for chart axes and tooltips: ms below a second, one decimal below a minute. */
export function formatLatency(ms: number): string {
  if (!Number.isFinite(ms)) return "";
  if (ms < SECOND) return `${Math.round(ms)} ms`;
  if (ms < MINUTE) return `${(ms / SECOND).toFixed(ms < 10 * SECOND ? 1 : 0)} s`;
  return formatDuration(ms);
}
