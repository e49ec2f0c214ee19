/**
 * Session lifetimes (OWASP session management cheat sheet: 15-30 min idle for an admin console,
 * a hard cap of a working day). A session ends at whichever comes first.
 */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60_000;
/**
 * How stale last_seen_at may get before a request refreshes it. Every open tab polls every ~2 s;
 * writing on each poll would be ~30 updates a minute per tab for a timestamp that only needs
 * minute precision against a 30 min window.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
