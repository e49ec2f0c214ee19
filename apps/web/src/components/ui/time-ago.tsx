"use client";

import { formatAgo, formatTimestamp } from "@/lib/format-time";
import { useNow } from "@/lib/use-now";

/**
 * "12 s ago", ticking, with the exact UTC time on hover. Before mount (server render) it prints
 * the absolute time, so the HTML is right without JavaScript and hydration cannot mismatch.
 */
export function TimeAgo({ iso, fallback = "—" }: { iso: string | null; fallback?: string }) {
  const now = useNow(1_000);
  if (iso === null) return <span className="text-subtle">{fallback}</span>;
  const exact = formatTimestamp(iso);
  return (
    <time dateTime={iso} title={exact} className="time-ago">
      {now === null ? exact : formatAgo(now - new Date(iso).getTime())}
    </time>
  );
}
