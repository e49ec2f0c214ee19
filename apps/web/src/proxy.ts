// Sends signed-out page visits to /sign-in before anything renders. This is the friendly half of
// access control; the binding half is in every tRPC procedure and REST handler, which check the
// session and role themselves (API routes are not matched here: they answer 401 JSON instead).
import { type NextRequest, NextResponse } from "next/server";
import { readSessionToken } from "./server/auth/session-cookie";
import { validateSession } from "./server/auth/validate-session";
import { getPool } from "./server/db";

export async function proxy(request: NextRequest): Promise<NextResponse> {
  if (request.nextUrl.pathname === "/sign-in") return withPageSecurityHeaders(NextResponse.next());
  const token = readSessionToken(request.headers);
  // Proxy runs on Node.js in Next 16, so the session is checked for real (one primary-key read),
  // not just for the cookie's presence: an expired session lands on the sign-in form too.
  const principal = token === null ? null : await validateSession({ db: getPool(), token });
  if (principal !== null) return withPageSecurityHeaders(NextResponse.next());
  const signIn = new URL("/sign-in", request.url);
  const next = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  if (next !== "/") signIn.searchParams.set("next", next);
  return NextResponse.redirect(signIn);
}

/**
 * The console's buttons pause production triggers: no other site may frame it (clickjacking),
 * and its URLs (filters, ids) are not sent to other origins in Referer.
 */
function withPageSecurityHeaders(response: NextResponse): NextResponse {
  response.headers.set("content-security-policy", "frame-ancestors 'none'");
  response.headers.set("x-frame-options", "DENY");
  response.headers.set("referrer-policy", "same-origin");
  response.headers.set("x-content-type-options", "nosniff");
  return response;
}

export const config = {
  // Pages: everything except API routes (tRPC, REST, health), metrics and static files.
  matcher: ["/((?!api/|metrics|_next/|favicon\\.ico|icon\\.svg).*)"],
};
