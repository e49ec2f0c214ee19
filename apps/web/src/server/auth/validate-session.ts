import type { Queryable } from "@cyclium/core/db";
import { ZRole, type TPrincipal } from "./principal";
import { hashSecretToken } from "./secret-token";
import { SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS } from "./session-policy";

interface SessionRow {
  user_id: string;
  email: string;
  role: string;
  needs_touch: boolean;
}

/**
 * The principal behind a session cookie, or null when the session is unknown, past its absolute
 * expiry (expires_at), idle for longer than the idle timeout, or its user is disabled. Timestamps
 * are compared on the database clock, the one every node shares. Valid sessions slide on user
 * activity: last_seen_at is refreshed at most once per SESSION_TOUCH_INTERVAL_MS.
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
  const id = hashSecretToken(options.token);
  const { rows } = await options.db.query<SessionRow>(
    `SELECT s.user_id, u.email, u.role,
            s.last_seen_at < now() - make_interval(secs => $3::double precision / 1000) AS needs_touch
       FROM cyclium_sessions s
       JOIN cyclium_users u ON u.id = s.user_id
      WHERE s.id = $1
        AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
        AND u.disabled_at IS NULL`,
    [id, SESSION_IDLE_TIMEOUT_MS, SESSION_TOUCH_INTERVAL_MS],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const role = ZRole.safeParse(row.role);
  if (!role.success) return null;
  if (row.needs_touch && options.slide !== false) {
    await options.db.query(`UPDATE cyclium_sessions SET last_seen_at = now() WHERE id = $1`, [id]);
  }
  return { kind: "user", id: row.user_id, name: row.email, role: role.data };
}
