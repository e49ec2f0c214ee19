import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { CycliumError } from "../errors/index";
import { MAX_NODE_IDENTITY_LENGTH } from "../scope/index";

/**
 * Where a node's identity comes from: a static value (`CYCLIUM_NODE_IDENTITY`), a resolver the
 * host app supplies, or nothing, in which case the process makes up one of its own.
 */
export type NodeIdentitySource = string | (() => string) | null | undefined;

let processIdentity: string | undefined;

/**
 * A random identity made once per process and kept for its lifetime. The hostname and pid are
 * only there to make it readable in the console: two containers can share both (every dev
 * container is `app`, every pid is 1), so the random suffix is what makes it unique.
 */
export function processNodeIdentity(): string {
  processIdentity ??= `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`.slice(
    -MAX_NODE_IDENTITY_LENGTH,
  );
  return processIdentity;
}

/**
 * Resolves the identity a node uses for claims, trigger requests and recovery. Resolve it once
 * at start-up and pass the string down: a resolver that answered differently later would make
 * the node a stranger to its own claims.
 */
export function resolveNodeIdentity(source?: NodeIdentitySource): string {
  if (source === undefined || source === null) return processNodeIdentity();
  const value = typeof source === "function" ? source() : source;
  const trimmed = value.trim();
  if (trimmed.length === 0) {
    throw new CycliumError("invalid_config", "Node identity must not be empty.");
  }
  if (trimmed.length > MAX_NODE_IDENTITY_LENGTH) {
    throw new CycliumError(
      "invalid_config",
      `Node identity must be at most ${MAX_NODE_IDENTITY_LENGTH} characters (got ${trimmed.length}).`,
    );
  }
  return trimmed;
}
