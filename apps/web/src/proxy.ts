// Sends signed-out page visits to /sign-in before anything renders. This is the friendly half of
// access control; the binding half is in every tRPC procedure and REST handler, which check the
// session and role themselves (API routes only get headers here: they answer 401 JSON instead).
import { type NextRequest, NextResponse } from "next/server";
import { recordRefusal } from "./server/audit/audited";
import { readRequestInfo } from "./server/auth/request-info";
import { isHttps, readSessionToken } from "./server/auth/session-cookie";
import { validateSession } from "./server/auth/validate-session";
import { getPool } from "./server/db";

/** Not pages: API routes, metrics, build assets and icons get the headers of every response. */
const NOT_A_PAGE = /^\/(api\/|metrics$|_next\/|favicon\.ico$|icon\.svg$)/;
/** REST at Cloacina's own paths: `/v1/...` is `/api/v1/...`. */
const CLOACINA_PATH = /^\/v1(\/|$)/;

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  // A path whose percent-encoding is not UTF-8 (`/%FF`, an encoded lone surrogate) answered 500
  // further in; it names nothing here.
  try {
    decodeURIComponent(pathname);
  } catch {
    return withEveryResponseHeaders(
      NextResponse.json(
        { error: "The request path is not valid UTF-8.", code: "invalid_input" },
        { status: 400 },
      ),
    );
  }
  // Next.js refuses a server action (sign-in, sign-out) from another origin by throwing, which
  // answered 500; refuse it here first, as a 403, and record it like every other refusal. A
  // plain HTML form posted to a page is a server action to Next.js too (it reads the action id
  // from the form's fields, with no `next-action` header), so every POST to a page counts: pages
  // take no other POST.
  if (request.method === "POST" && (request.headers.has("next-action") || isPagePath(pathname))) {
    const info = readRequestInfo(request.headers);
    if (info.origin === "cross") {
      await recordRefusal(getPool(), {
        principal: null,
        action: "server_action",
        target: pathname,
        ip: info.ip,
        reason: "cross_origin",
      });
      return withEveryResponseHeaders(
        NextResponse.json(
          { error: "Cross-origin request refused.", code: "cross_origin" },
          { status: 403 },
        ),
      );
    }
  }
  // Cloacina's clients call `/v1/tenants/...` (its server's paths): served by the same handlers
  // as `/api/v1`, with their own Bearer auth, never the sign-in page (issue 20).
  if (CLOACINA_PATH.test(pathname)) {
    const target = new URL(`/api${pathname}${request.nextUrl.search}`, request.url);
    return withEveryResponseHeaders(NextResponse.rewrite(target));
  }
  if (NOT_A_PAGE.test(pathname)) return withEveryResponseHeaders(NextResponse.next());
  if (pathname === "/sign-in") return pageResponse(request);
  const token = readSessionToken(request.headers);
  // Proxy runs on Node.js in Next 16, so the session is checked for real (one primary-key read),
  // not just for the cookie's presence: an expired session lands on the sign-in form too.
  const principal = token === null ? null : await validateSession({ db: getPool(), token });
  if (principal !== null) return pageResponse(request);
  const signIn = new URL("/sign-in", request.url);
  const next = `${pathname}${request.nextUrl.search}`;
  if (next !== "/") signIn.searchParams.set("next", next);
  return withEveryResponseHeaders(NextResponse.redirect(signIn));
}

function isPagePath(pathname: string): boolean {
  return !NOT_A_PAGE.test(pathname) && !CLOACINA_PATH.test(pathname);
}

/**
 * A strict CSP (issue 13: it was only `frame-ancestors 'none'`, which contains no XSS): scripts
 * run only with this response's nonce, and what they load ('strict-dynamic'), so an injected
 * `<script>` or `javascript:` URL does not. Next.js reads the policy from the request headers and
 * puts the nonce on its own scripts, which is why every page renders dynamically (layout.tsx).
 * Styles keep 'unsafe-inline': React's `style` attributes (charts, bars) need it, and CSS cannot
 * run script.
 */
export function contentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${development ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // The console's buttons pause production triggers: no other site may frame it.
    "frame-ancestors 'none'",
  ].join("; ");
}

function pageResponse(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  // eslint-disable-next-line no-restricted-properties -- Next inlines NODE_ENV at build time; dev needs eval for React's debugging.
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  response.headers.set("x-frame-options", "DENY");
  // Its URLs (filters, ids) are not sent to other origins in Referer.
  response.headers.set("referrer-policy", "same-origin");
  if (isHttps(request.headers, request.url)) {
    response.headers.set("strict-transport-security", "max-age=31536000");
  }
  return withEveryResponseHeaders(response);
}

function withEveryResponseHeaders(response: NextResponse): NextResponse {
  response.headers.set("x-content-type-options", "nosniff");
  return response;
}

export const config = {
  // Every request: pages get the session check and the CSP, everything else `nosniff`.
  matcher: ["/:path*"],
};
