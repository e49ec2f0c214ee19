/**
 * Where to go after signing in: only a path on this console, else `/` (open redirect, issue 13).
 *
 * The text is parsed by the WHATWG URL parser, the one browsers use, against a placeholder origin:
 * the parser is what strips tabs and newlines, turns `\` into `/` and makes `//host` a host, so a
 * target is judged as the browser will read it rather than by string prefixes (`/<TAB>/evil`
 * passed a prefix check and left for evil.example). Accepted only when it stays on that origin
 * and its normalised path is absolute and not protocol-relative; the value returned is the
 * parser's serialisation (control characters and spaces percent-encoded), so it is always a valid
 * `Location` header value: a newline can no longer make the redirect throw (it answered 500).
 */
const PLACEHOLDER_ORIGIN = "http://console.invalid";
const MAX_NEXT_LENGTH = 2048;
// C0 controls, DEL and the backslash are never in a path the console itself links to; a raw one
// is someone probing the parser, so refuse rather than normalise.
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const SUSPICIOUS = /[\u0000-\u001f\u007f\\]/;

export function safeNextPath(next: unknown): string {
  if (typeof next !== "string" || next.length > MAX_NEXT_LENGTH) return "/";
  if (!next.startsWith("/") || SUSPICIOUS.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || url.username !== "" || url.password !== "") return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` normalises to the path `//evil.example`: protocol-relative once emitted.
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return "/";
  if (url.pathname === "/sign-in" || url.pathname.startsWith("/sign-in/")) return "/";
  return path;
}
