"use client";

import { formatAgo, formatTimestampIn } from "@/lib/format-time";
import { useTimeZone } from "@/lib/preferences/time-zone";
import { useNow } from "@/lib/use-now";

/**
 * The absolute time in the operator's chosen zone (UTC or local, top bar), with "12 s ago"
 * ticking beside it as secondary text. Before mount (server render) it prints the UTC time only,
 * so the HTML is right without JavaScript and hydration cannot mismatch.
 *
 * `compact` (the live lists' columns): on a desktop only "12 s ago" shows, the absolute time is
 * its tooltip and stays in the text for screen readers (table-fit.css); "03 Dec 2026, 15:47:54
 * UTC" took ~200 px of a 1,140 px table and pushed its last column out of view. A phone's card
 * shows both, as before.
 */
export function TimeAgo({
  iso,
  fallback = "—",
  compact,
}: {
  iso: string | null;
  fallback?: string;
  compact?: boolean;
}) {
  const now = useNow(1_000);
  const [zone] = useTimeZone();
  if (iso === null) return <span className="text-subtle">{fallback}</span>;
  const exact = formatTimestampIn(iso, now === null ? "utc" : zone);
  return (
    <time
      dateTime={iso}
      className="time-ago"
      data-compact={compact && now !== null ? "true" : undefined}
      title={compact ? exact : undefined}
    >
      <span className="time-ago-exact">{exact}</span>
      {now === null ? null : (
        <span className="time-ago-relative">{formatAgo(now - new Date(iso).getTime())}</span>
      )}
    </time>
  );
}
