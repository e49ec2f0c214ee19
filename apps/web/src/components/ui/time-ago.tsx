"use client";

import { formatAgo, formatTimestampIn } from "@/lib/format-time";
import { useTimeZone } from "@/lib/preferences/time-zone";
import { useNow } from "@/lib/use-now";

/**
 * The absolute time in the operator's chosen zone (UTC or local, top bar), with "12 s ago"
 * ticking beside it as secondary text. Before mount (server render) it prints the UTC time only,
 * so the HTML is right without JavaScript and hydration cannot mismatch.
 */
export function TimeAgo({ iso, fallback = "—" }: { iso: string | null; fallback?: string }) {
  const now = useNow(1_000);
  const [zone] = useTimeZone();
  if (iso === null) return <span className="text-subtle">{fallback}</span>;
  const exact = formatTimestampIn(iso, now === null ? "utc" : zone);
  return (
    <time dateTime={iso} className="time-ago">
      <span className="time-ago-exact">{exact}</span>
      {now === null ? null : (
        <span className="time-ago-relative">{formatAgo(now - new Date(iso).getTime())}</span>
      )}
    </time>
  );
}
