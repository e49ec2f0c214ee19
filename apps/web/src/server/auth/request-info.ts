import { getWebEnv } from "../../env";
import { clientAddress, NO_TRUSTED_PROXIES, type TTrustedProxies } from "./client-address";

/**
 * Facts about the HTTP request that authorization needs, computed once per request from its
 * headers: the client address (audit log, sign-in rate limit) and whether a state-changing call
 * may proceed under the same-origin rule.
 */
export interface TRequestInfo {
  ip: string | null;
  userAgent: string | null;
  /**
   * `same`: the browser says the request comes from this console (Sec-Fetch-Site: same-origin, or
   * an Origin whose host is ours). `cross`: it says otherwise. `unknown`: neither header, i.e. not
   * a browser (curl, a script) — fine for Bearer tokens, which a browser never sends on its own,
   * refused for cookie-authenticated calls (CSRF needs a browser, and every current browser sends
   * Origin on POST).
   */
  origin: "same" | "cross" | "unknown";
}

export function classifyOrigin(headers: Headers): TRequestInfo["origin"] {
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite !== null) return fetchSite === "same-origin" ? "same" : "cross";
  const origin = headers.get("origin");
  if (origin === null) return "unknown";
  // Next's server fills x-forwarded-host from Host when no proxy set it; a proxy in front keeps
  // the public host there. A cross-site page cannot set either header on a simple request.
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (host === null) return "cross";
  try {
    return new URL(origin).host === host.split(",")[0]?.trim() ? "same" : "cross";
  } catch {
    // `Origin: null` (sandboxed iframes, file://) and garbage are never ours.
    return "cross";
  }
}

/** The configured proxies; none when the environment cannot be read (unit tests). */
function trustedProxiesFromEnv(): TTrustedProxies {
  try {
    return getWebEnv().CYCLIUM_TRUSTED_PROXIES;
  } catch {
    // instrumentation.ts validates the environment at start, so a server never gets here.
    return NO_TRUSTED_PROXIES;
  }
}

export function readRequestInfo(
  headers: Headers,
  trustedProxies: TTrustedProxies = trustedProxiesFromEnv(),
): TRequestInfo {
  return {
    ip: clientAddress(headers, trustedProxies),
    userAgent: headers.get("user-agent"),
    origin: classifyOrigin(headers),
  };
}
