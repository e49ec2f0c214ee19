import type { Queryable } from "../../db/index";

/** `cyclium_users.role`: admins manage users and tokens, operators act, viewers read. */
export const USER_ROLES = ["admin", "operator", "viewer"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface InsertUserOptions {
  email: string;
  name: string;
  /**
   * The password's Argon2id PHC string: the caller hashes (apps/web's password-hash.ts, the
   * `cyclium` CLI), so core and every worker stay without the native hash.
   */
  passwordHash: string;
  role: UserRole;
  /**
   * An existing email: `refuse` (default) answers `conflict`; `reset` sets its name, role and
   * password and re-enables it (seeding known accounts: the demo, tests).
   */
  onConflict?: "refuse" | "reset" | undefined;
}

export type InsertUserResult =
  | { kind: "created"; userId: string }
  | { kind: "reset"; userId: string }
  | { kind: "conflict"; email: string };

// `xmax = 0` tells an inserted row from one the upsert updated.
const INSERT_SQL = `
INSERT INTO cyclium_users (email, name, password_hash, role) VALUES ($1, $2, $3, $4)
ON CONFLICT (email) DO NOTHING
RETURNING id`;

const UPSERT_SQL = `
INSERT INTO cyclium_users (email, name, password_hash, role) VALUES ($1, $2, $3, $4)
ON CONFLICT (email) DO UPDATE
  SET name = EXCLUDED.name, password_hash = EXCLUDED.password_hash, role = EXCLUDED.role,
      disabled_at = NULL, updated_at = now()
RETURNING id, (xmax = 0) AS inserted`;

/** Creates a console user with the password hash given; an existing email is a value. */
export async function insertUser(
  options: InsertUserOptions,
  db: Queryable,
): Promise<InsertUserResult> {
  const params = [options.email, options.name, options.passwordHash, options.role];
  if (options.onConflict === "reset") {
    const { rows } = await db.query<{ id: string; inserted: boolean }>(UPSERT_SQL, params);
    const row = rows[0];
    if (row === undefined) throw new Error("user upsert returned no row");
    return { kind: row.inserted ? "created" : "reset", userId: row.id };
  }
  const { rows } = await db.query<{ id: string }>(INSERT_SQL, params);
  const row = rows[0];
  return row === undefined
    ? { kind: "conflict", email: options.email }
    : { kind: "created", userId: row.id };
}
