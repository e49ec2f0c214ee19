import { findSession } from "@cyclium/core/console";
import type { Queryable } from "@cyclium/core/console";
import type { TPrincipal } from "./principal";
import { SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS } from "./session-policy";

/**
 * The principal behind a session cookie, or null when the session is unknown, expired, idle for
 * longer than the idle timeout, or its user is disabled (core's findSession, with this console's
 * session policy).
 */
export async function validateSession(options: {
  db: Queryable;
  token: string;
  /**
   * Whether this request counts as activity (default true). Background polls do not: an open tab
   * refreshing every 2 s would otherwise keep a walked-away session alive for 12 h.
   */
  slide?: boolean;
}): Promise<TPrincipal | null> {
  const user = await findSession({
    db: options.db,
    token: options.token,
    idleTimeoutMs: SESSION_IDLE_TIMEOUT_MS,
    touchIntervalMs: SESSION_TOUCH_INTERVAL_MS,
    slide: options.slide,
  });
  return user === null
    ? null
    : { kind: "user", id: user.userId, name: user.email, role: user.role };
}
