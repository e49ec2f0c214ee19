/**
 * Where to go after signing in: only a path on this console. `//evil.example` and `/\evil` are
 * protocol-relative URLs to browsers, so they are refused like absolute ones (open redirect).
 */
export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  if (next.startsWith("//") || next.startsWith("/\\") || next.startsWith("/sign-in")) return "/";
  return next.length > 2048 ? "/" : next;
}
