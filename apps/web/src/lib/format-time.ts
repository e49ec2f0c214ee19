import { formatDuration } from "./format-duration";

// Fixed locale and zone: the server and the browser must print the same text or hydration fails.
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});

/** `29 Nov 2026, 14:03:07 UTC`: absolute, unambiguous across operators' time zones. */
export function formatTimestamp(iso: string): string {
  return `${timeFormat.format(new Date(iso))} UTC`;
}

/** "4 s ago" / "in 2 min" from a signed offset in ms (positive = past). */
export function formatAgo(agoMs: number): string {
  if (agoMs < 0) return `in ${formatDuration(-agoMs)}`;
  return `${formatDuration(agoMs)} ago`;
}

/** Run time of something that started and maybe finished. */
export function elapsedMs(
  startedAt: string | null,
  finishedAt: string | null,
  now: number,
): number | null {
  if (startedAt === null) return null;
  const end = finishedAt === null ? now : new Date(finishedAt).getTime();
  return Math.max(0, end - new Date(startedAt).getTime());
}
