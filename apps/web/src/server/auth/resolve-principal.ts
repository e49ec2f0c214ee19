import type { Queryable } from "@cyclium/core/console";
import type { TPrincipal } from "./principal";
import { readSessionToken } from "./session-cookie";
import { readBearerToken, validateApiToken } from "./validate-api-token";
import { validateSession } from "./validate-session";

/**
 * Who is calling. The console (tRPC) accepts only the session cookie; REST v1 also accepts
 * `Authorization: Bearer` API tokens. An Authorization header that is present wins over a cookie,
 * so a script never acts with a browser's session by accident.
 */
export async function resolvePrincipal(options: {
  db: Queryable;
  headers: Headers;
  allowApiTokens: boolean;
  /** Whether the request counts as user activity for the idle timeout (validate-session.ts). */
  slide?: boolean;
}): Promise<TPrincipal | null> {
  if (options.allowApiTokens && options.headers.has("authorization")) {
    const bearer = readBearerToken(options.headers);
    return bearer === null ? null : validateApiToken({ db: options.db, token: bearer });
  }
  const session = readSessionToken(options.headers);
  return session === null
    ? null
    : validateSession({ db: options.db, token: session, slide: options.slide });
}
