import "server-only";
import { readRequestInfo } from "../auth/request-info";
import { resolvePrincipal } from "../auth/resolve-principal";
import { getPool } from "../db";
import { getNodeInfo } from "../node-info";
import type { TTrpcContext } from "./init";

/**
 * Per-request context for every transport (the /api/trpc route handler and the RSC caller):
 * the session cookie's principal (null when anonymous) and the request facts authorization needs.
 */
export async function createTrpcContext(options: {
  headers: Headers;
  /**
   * False for background reads (the API route passes true only for mutations): polling must not
   * keep an idle session alive. Server renders are page visits, hence activity.
   */
  slide?: boolean;
}): Promise<TTrpcContext> {
  const db = getPool();
  return {
    db,
    node: getNodeInfo(),
    principal: await resolvePrincipal({
      db,
      headers: options.headers,
      allowApiTokens: false,
      slide: options.slide ?? true,
    }),
    request: readRequestInfo(options.headers),
  };
}
