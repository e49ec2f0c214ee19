import "server-only";
import { getPool } from "../db";
import { getNodeInfo } from "../node-info";
import type { TTrpcContext } from "./init";

/**
 * Per-request context. `headers` is unused until sign-in lands, but every transport (the HTTP
 * route handler and the RSC caller) already passes them so sessions can be read here later.
 */
export function createTrpcContext(_options: { headers: Headers }): TTrpcContext {
  return { db: getPool(), node: getNodeInfo() };
}
