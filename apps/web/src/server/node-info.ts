import "server-only";
import { randomBytes } from "node:crypto";
import { getWebEnv } from "../env";

/** What this console process is, as shown in the top bar and recorded as a node. */
export interface TNodeInfo {
  identity: string;
  /** The console always runs its actors trigger-only; execution belongs to workers (SPEC 1). */
  mode: "trigger_only";
  env: string | null;
  stack: string | null;
}

const globalForNode = globalThis as typeof globalThis & { cycliumWebIdentity?: string };

// SPEC section 8: unset CYCLIUM_NODE_IDENTITY means a random identity that is stable for the
// lifetime of the process, hence cached on globalThis (survives dev hot reloads too).
function processIdentity(): string {
  globalForNode.cycliumWebIdentity ??= `web-${randomBytes(4).toString("hex")}`;
  return globalForNode.cycliumWebIdentity;
}

export function getNodeInfo(): TNodeInfo {
  const env = getWebEnv();
  return {
    identity: env.CYCLIUM_NODE_IDENTITY ?? processIdentity(),
    mode: "trigger_only",
    env: env.CYCLIUM_ENV ?? null,
    stack: env.CYCLIUM_STACK_SLUG ?? null,
  };
}
