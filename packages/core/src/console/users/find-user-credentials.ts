import type { Queryable } from "../../db/index";

/** What a sign-in checks a password against. */
export interface UserCredentials {
  id: string;
  email: string;
  /** Not narrowed here: an unknown role is refused by the sign-in, like a wrong password. */
  role: string;
  passwordHash: string;
  disabledAt: Date | null;
}

/** The user with `email` (stored lower-case), or undefined. */
export async function findUserCredentials(options: {
  db: Queryable;
  email: string;
}): Promise<UserCredentials | undefined> {
  const { rows } = await options.db.query<{
    id: string;
    email: string;
    role: string;
    password_hash: string;
    disabled_at: Date | null;
  }>(`SELECT id, email, role, password_hash, disabled_at FROM cyclium_users WHERE email = $1`, [
    options.email,
  ]);
  const row = rows[0];
  return row === undefined
    ? undefined
    : {
        id: row.id,
        email: row.email,
        role: row.role,
        passwordHash: row.password_hash,
        disabledAt: row.disabled_at,
      };
}
