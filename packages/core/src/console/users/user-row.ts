import { USER_ROLES, type UserRole } from "./insert-user";
import type { UserModel } from "@cyclium/db/models";
import type { RowOf } from "../../db/row-of";

/** A console user as the admin page lists it. */
export interface User {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  disabledAt: Date | null;
  insertedAt: Date;
  /** Most recent activity of any of the user's live sessions. */
  lastSeenAt: Date | null;
}

export type UserRow = Pick<
  RowOf<UserModel>,
  "id" | "email" | "name" | "role" | "disabled_at" | "inserted_at"
> & {
  /** Computed: the latest `last_seen_at` of the user's sessions. */
  last_seen_at: Date | null;
};

export const USER_COLUMNS = `u.id, u.email, u.name, u.role, u.disabled_at, u.inserted_at,
  (SELECT max(s.last_seen_at) FROM cyclium_sessions s WHERE s.user_id = u.id) AS last_seen_at`;

export function isUserRole(role: unknown): role is UserRole {
  return (USER_ROLES as readonly unknown[]).includes(role);
}

/** cyclium_users.role has no CHECK constraint: a role this release does not know is a bug. */
export function parseUserRole(role: string): UserRole {
  if (!isUserRole(role)) throw new Error(`unknown console role ${JSON.stringify(role)}`);
  return role;
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: parseUserRole(row.role),
    disabledAt: row.disabled_at,
    insertedAt: row.inserted_at,
    lastSeenAt: row.last_seen_at,
  };
}
