import type { Queryable } from "../../db/index";
import type { UserRole } from "../users/insert-user";
import { isUserRole } from "../users/user-row";
import { hashSecretToken } from "./secret-token";

/** The signed-in user behind a live session. */
export interface SessionUser {
  userId: string;
  email: string;
  role: UserRole;
}

export interface FindSessionOptions {
  db: Queryable;
  /** The secret from the cookie; only its SHA-256 is stored. */
  token: string;
  idleTimeoutMs: number;
  /** last_seen_at is refreshed when it is older than this (and `slide` is not false). */
  touchIntervalMs: number;
  /** Whether this request counts as activity (default true). */
  slide?: boolean | undefined;
}

/**
 * The user behind a session, or null when the session is unknown, past its absolute expiry
 * (expires_at), idle for longer than `idleTimeoutMs`, or its user is disabled. Timestamps are
 * compared on the database clock, the one every node shares. Valid sessions slide on activity:
 * last_seen_at is refreshed at most once per `touchIntervalMs`.
 */
export async function findSession(options: FindSessionOptions): Promise<SessionUser | null> {
  const id = hashSecretToken(options.token);
  const { rows } = await options.db.query<{
    user_id: string;
    email: string;
    role: string;
    needs_touch: boolean;
  }>(
    `SELECT s.user_id, u.email, u.role,
            s.last_seen_at < now() - make_interval(secs => $3::double precision / 1000) AS needs_touch
       FROM cyclium_sessions s
       JOIN cyclium_users u ON u.id = s.user_id
      WHERE s.id = $1
        AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
        AND u.disabled_at IS NULL`,
    [id, options.idleTimeoutMs, options.touchIntervalMs],
  );
  const row = rows[0];
  if (row === undefined || !isUserRole(row.role)) return null;
  if (row.needs_touch && options.slide !== false) {
    await options.db.query(`UPDATE cyclium_sessions SET last_seen_at = now() WHERE id = $1`, [id]);
  }
  return { userId: row.user_id, email: row.email, role: row.role };
}

export interface OpenSessionOptions {
  /** Run it in the sign-in's transaction, with its audit row. */
  db: Queryable;
  userId: string;
  /** The new session's secret; only its SHA-256 is stored. */
  token: string;
  /** A session the browser already had: deleted, so a planted id cannot be promoted. */
  previousToken?: string | null | undefined;
  ip: string | null;
  userAgent: string | null;
  absoluteTimeoutMs: number;
}

/** Stores a new session for `userId`, dropping the previous one and the user's expired ones. */
export async function openSession(options: OpenSessionOptions): Promise<void> {
  const { db } = options;
  if (options.previousToken) {
    await db.query(`DELETE FROM cyclium_sessions WHERE id = $1`, [
      hashSecretToken(options.previousToken),
    ]);
  }
  // Housekeeping for this user only: sessions past their absolute expiry can never come back.
  await db.query(`DELETE FROM cyclium_sessions WHERE user_id = $1 AND expires_at < now()`, [
    options.userId,
  ]);
  await db.query(
    `INSERT INTO cyclium_sessions (id, user_id, ip, user_agent, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))`,
    [
      hashSecretToken(options.token),
      options.userId,
      options.ip,
      options.userAgent?.slice(0, 512) ?? null,
      options.absoluteTimeoutMs,
    ],
  );
}

/** Deletes the session behind `token`; answers whose it was, or null when there was none. */
export async function endSession(options: {
  db: Queryable;
  token: string;
}): Promise<SessionUser | null> {
  const { rows } = await options.db.query<{ user_id: string; email: string; role: string }>(
    `DELETE FROM cyclium_sessions s USING cyclium_users u
      WHERE s.id = $1 AND u.id = s.user_id
      RETURNING s.user_id, u.email, u.role`,
    [hashSecretToken(options.token)],
  );
  const row = rows[0];
  if (row === undefined || !isUserRole(row.role)) return null;
  return { userId: row.user_id, email: row.email, role: row.role };
}
