import { ZRole, type TRole } from "../principal";

export interface TUser {
  id: string;
  email: string;
  name: string;
  role: TRole;
  disabledAt: string | null;
  insertedAt: string;
  /** Most recent activity of any of the user's live sessions. */
  lastSeenAt: string | null;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled_at: Date | null;
  inserted_at: Date;
  last_seen_at: Date | null;
}

export const USER_COLUMNS = `u.id, u.email, u.name, u.role, u.disabled_at, u.inserted_at,
  (SELECT max(s.last_seen_at) FROM cyclium_sessions s WHERE s.user_id = u.id) AS last_seen_at`;

export function toUser(row: UserRow): TUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: ZRole.parse(row.role),
    disabledAt: row.disabled_at?.toISOString() ?? null,
    insertedAt: row.inserted_at.toISOString(),
    lastSeenAt: row.last_seen_at?.toISOString() ?? null,
  };
}
