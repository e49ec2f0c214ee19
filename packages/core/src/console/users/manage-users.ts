import type { Queryable } from "../../db/index";
import { CycliumError } from "../../errors/index";
import { insertUser, type UserRole } from "./insert-user";
import { toUser, USER_COLUMNS, type User, type UserRow } from "./user-row";

export async function listUsers(options: { db: Queryable }): Promise<User[]> {
  const { rows } = await options.db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM cyclium_users u ORDER BY u.disabled_at IS NOT NULL, u.email`,
  );
  return rows.map(toUser);
}

export async function createUser(options: {
  db: Queryable;
  email: string;
  name: string;
  passwordHash: string;
  role: UserRole;
}): Promise<User> {
  const { db, ...user } = options;
  const result = await insertUser(user, db);
  if (result.kind === "conflict") {
    throw new CycliumError("conflict", `A user with the email ${options.email} already exists.`);
  }
  return loadUser(db, result.userId);
}

async function loadUser(db: Queryable, userId: string): Promise<User> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM cyclium_users u WHERE u.id = $1`,
    [userId],
  );
  return onlyUser(rows);
}

/**
 * Creates the user or, if the email exists, resets its name, role and password and re-enables it.
 * For seeding known accounts (demo, tests); the admin page uses createUser.
 */
export async function ensureUser(options: {
  db: Queryable;
  email: string;
  name: string;
  passwordHash: string;
  role: UserRole;
}): Promise<User> {
  const { db, ...user } = options;
  const result = await insertUser({ ...user, onConflict: "reset" }, db);
  if (result.kind === "conflict") throw new Error("insertUser with reset answered conflict");
  return loadUser(db, result.userId);
}

async function lockActiveAdmins(db: Queryable): Promise<string[]> {
  // FOR UPDATE serialises concurrent demotions so two admins cannot demote each other at once
  // and leave nobody able to administer the console.
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM cyclium_users WHERE role = 'admin' AND disabled_at IS NULL FOR UPDATE`,
  );
  return rows.map((row) => row.id);
}

async function refuseLastAdmin(db: Queryable, userId: string, what: string): Promise<void> {
  const admins = await lockActiveAdmins(db);
  if (admins.length === 1 && admins[0] === userId) {
    throw new CycliumError("conflict", `Cannot ${what} the last active admin.`);
  }
}

async function updateUser(db: Queryable, userId: string, set: string, values: unknown[]) {
  const { rows } = await db.query<UserRow>(
    `WITH u AS (UPDATE cyclium_users SET ${set}, updated_at = now() WHERE id = $1 RETURNING *)
     SELECT ${USER_COLUMNS} FROM u`,
    [userId, ...values],
  );
  return onlyUser(rows);
}

/** Run inside a transaction (`audited`), so the last-admin check and the update are atomic. */
export async function setUserRole(options: {
  db: Queryable;
  userId: string;
  role: UserRole;
}): Promise<User> {
  if (options.role !== "admin") await refuseLastAdmin(options.db, options.userId, "demote");
  return updateUser(options.db, options.userId, "role = $2", [options.role]);
}

/** Disabling also ends every session of the user at once. Run inside a transaction. */
export async function setUserDisabled(options: {
  db: Queryable;
  userId: string;
  disabled: boolean;
}): Promise<User> {
  if (!options.disabled) return updateUser(options.db, options.userId, "disabled_at = NULL", []);
  await refuseLastAdmin(options.db, options.userId, "disable");
  const user = await updateUser(
    options.db,
    options.userId,
    "disabled_at = coalesce(disabled_at, now())",
    [],
  );
  await options.db.query(`DELETE FROM cyclium_sessions WHERE user_id = $1`, [options.userId]);
  return user;
}

/** The one user a lookup or update by id returned; not_found when there is none. */
function onlyUser(rows: UserRow[]): User {
  const row = rows[0];
  if (row === undefined) throw new CycliumError("not_found", "No such user.");
  return toUser(row);
}
