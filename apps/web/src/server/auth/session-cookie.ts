import { parseCookie, stringifySetCookie } from "cookie";
import { SESSION_ABSOLUTE_TIMEOUT_MS } from "./session-policy";

export const SESSION_COOKIE = "cyclium_session";

/** Secure whenever the browser reached us over https (directly or via a TLS-terminating proxy). */
export function isHttps(headers: Headers, url?: string): boolean {
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  if (proto !== undefined && proto !== "") return proto === "https";
  return url?.startsWith("https:") ?? false;
}

export interface TSessionCookieOptions {
  httpOnly: true;
  sameSite: "lax";
  secure: boolean;
  path: "/";
  maxAge: number;
}

/**
 * HttpOnly: scripts (and so XSS) cannot read it. SameSite=Lax: not sent on cross-site POSTs or
 * subresource loads, yet a link from chat or email into the console still lands signed in.
 * Max-Age matches the absolute timeout; the idle timeout is enforced on the server.
 */
export function sessionCookieOptions(secure: boolean): TSessionCookieOptions {
  return {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: Math.floor(SESSION_ABSOLUTE_TIMEOUT_MS / 1000),
  };
}

export function readSessionToken(headers: Headers): string | null {
  const header = headers.get("cookie");
  if (header === null) return null;
  const value = parseCookie(header)[SESSION_COOKIE];
  return value === undefined || value === "" ? null : value;
}

/** A Set-Cookie header value, for route handlers that answer with a plain Response. */
export function sessionSetCookie(token: string, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    ...sessionCookieOptions(secure),
  });
}

export function clearedSessionSetCookie(secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: "",
    ...sessionCookieOptions(secure),
    maxAge: 0,
  });
}
