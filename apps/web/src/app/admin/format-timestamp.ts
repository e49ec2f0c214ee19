/**
 * "2026-11-29 14:03 UTC": the same text on the server and in the browser (a relative "5 min ago"
 * would differ between the two renders and break hydration), unambiguous across time zones.
 */
export function formatTimestamp(iso: string | null): string {
  if (iso === null) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
