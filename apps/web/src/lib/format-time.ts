import { formatDuration } from "./format-duration";

// Fixed locale and zone: the server and the browser must print the same text or hydration fails.
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
};
const timeFormat = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...DATE_TIME });

/** `29 Nov 2026, 14:03:07 UTC`: absolute, unambiguous across operators' time zones. */
export function formatTimestamp(iso: string): string {
  return `${timeFormat.format(new Date(iso))} UTC`;
}

// The browser's own zone, named (`CET`, `GMT+2`); only ever used after hydration.
let localFormat: Intl.DateTimeFormat | undefined;

/** The same instant in UTC or in the browser's zone, with the zone named. */
export function formatTimestampIn(iso: string, zone: "utc" | "local"): string {
  if (zone === "utc") return formatTimestamp(iso);
  localFormat ??= new Intl.DateTimeFormat("en-GB", { ...DATE_TIME, timeZoneName: "short" });
  return localFormat.format(new Date(iso));
}

/**
 * A formatter for UTC or the browser's zone with the same fields; the local one is made on first
 * use, which is only ever after hydration.
 */
function zonedFormat(fields: Intl.DateTimeFormatOptions) {
  const utc = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", ...fields });
  let local: Intl.DateTimeFormat | undefined;
  return (iso: string, zone: "utc" | "local"): string => {
    if (zone === "utc") return utc.format(new Date(iso));
    local ??= new Intl.DateTimeFormat("en-GB", fields);
    return local.format(new Date(iso));
  };
}

const clock = zonedFormat({ hour: "2-digit", minute: "2-digit", hour12: false });

/** `14:03` for chart axes; the axis label names the zone. */
export function formatClock(iso: string, zone: "utc" | "local"): string {
  return clock(iso, zone);
}

const dayClock = zonedFormat({
  day: "2-digit",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

/** `03 Dec, 14:00` for per-hour chart axes spanning days; the axis label names the zone. */
export function formatDayClock(iso: string, zone: "utc" | "local"): string {
  return dayClock(iso, zone);
}

/** A chart bucket's start: the clock for minutes, day and clock for hours. */
export function formatBucket(iso: string, zone: "utc" | "local", bucket: "minute" | "hour") {
  return bucket === "minute" ? formatClock(iso, zone) : formatDayClock(iso, zone);
}

/** The zone's name for axis labels: `UTC` or the browser's (`Europe/Paris`). */
export function zoneLabel(zone: "utc" | "local"): string {
  return zone === "utc" ? "UTC" : Intl.DateTimeFormat().resolvedOptions().timeZone;
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
